/**
 * A non-apply PATCH applied to the object it names (`handlers/patch.go` patcher): the current
 * object read in the request's version (a Scale for the scale subresource), the JSON patch,
 * merge patch or strategic merge patch applied to it, and the result written through the same
 * update path as a PUT. Shared by HTTP requests (http/patch.ts picks the type by Content-Type)
 * and the server's internal client.
 */
import { applyStrategicMergePatch, catalogNode, type MergeNode } from "@opgen/apimachinery/merge";
import { errors } from "@opgen/apimachinery/status";
import { isObject, type KubeObject } from "../api/types.js";
import { applyJsonPatch } from "../patch/jsonpatch.js";
import { applyMergePatch } from "../patch/mergepatch.js";
import type { ObjectRest } from "./objects.js";
import type { RequestScope } from "./scope.js";
import type { WriteResult } from "./write-steps.js";

export type PatchType = "json" | "merge" | "strategic";

/** Patches the object `scope` names with `raw` (the patch document's text). */
export async function patchObject(
  rest: ObjectRest,
  scope: RequestScope,
  type: PatchType,
  raw: string,
): Promise<WriteResult> {
  const current =
    scope.subresource === "scale" ? await rest.getScaleAsync(scope) : await rest.getAsync(scope);
  let patched: unknown;
  if (type === "json") {
    patched = applyJsonPatch(current, raw);
  } else {
    let p: unknown;
    try {
      p = JSON.parse(raw);
    } catch (e) {
      throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
    }
    if (!isObject(p))
      throw errors.badRequest(
        "error decoding patch: json: cannot unmarshal into Go value of type map[string]interface {}",
      );
    patched =
      type === "merge"
        ? applyMergePatch(current, p)
        : applyStrategicMergePatch(current, p, strategicSchema(scope));
  }
  if (!isObject(patched)) throw errors.badRequest("the patch did not produce an object");
  if (scope.subresource === "scale") return rest.updateScaleAsync(scope, patched as KubeObject);
  return rest.updateAsync(scope, patched as KubeObject, { patch: true });
}

/** The catalog schema a built-in's strategic merge patch follows (the scale subresource's Scale). */
function strategicSchema(scope: RequestScope): MergeNode | undefined {
  const catalog = scope.info.kube.catalog;
  const name =
    scope.subresource === "scale"
      ? "io.k8s.api.autoscaling.v1.Scale"
      : catalog.definitionName({
          group: scope.info.group,
          version: scope.version.name,
          kind: scope.info.kind,
        });
  return name ? catalogNode(catalog, name) : undefined;
}
