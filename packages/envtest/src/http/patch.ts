/**
 * PATCH dispatch by Content-Type (`handlers/patch.go`): JSON patch, merge patch, strategic merge
 * patch (built-ins only: custom resources answer 415 with the real message) and server-side
 * apply, with PatchOptions validation. The patched object goes through the same update path as
 * a PUT.
 */
import type { IncomingMessage } from "node:http";
import { definitionName } from "@opgen/apimachinery/catalog";
import { applyStrategicMergePatch, catalogNode, type MergeNode } from "@opgen/apimachinery/merge";
import { errors } from "@opgen/apimachinery/status";
import { isObject, type KubeObject } from "../api/types.js";
import { applyJsonPatch } from "../patch/jsonpatch.js";
import { applyMergePatch } from "../patch/mergepatch.js";
import type { ObjectRest } from "../rest/objects.js";
import { parseBool, type RequestScope } from "../rest/scope.js";
import { mediaType } from "./wire.js";

const crPatchTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/apply-patch+yaml",
];
const builtinPatchTypes = [...crPatchTypes, "application/strategic-merge-patch+json"];

export type ApplyFn = (
  scope: RequestScope,
  body: string,
  force: boolean,
) => Promise<{ code: number; body: KubeObject }>;

/** `body` is the request's, read once: a write that lost a race is patched again from it. */
export async function patch(
  rest: ObjectRest,
  apply: ApplyFn | undefined,
  req: IncomingMessage,
  body: Buffer,
  scope: RequestScope,
): Promise<{ code: number; body: KubeObject }> {
  const ct = mediaType(req.headers["content-type"]);
  const info = scope.info;
  const accepted = info.custom ? crPatchTypes : builtinPatchTypes;
  if (!accepted.includes(ct)) throw errors.unsupportedMediaType(accepted);
  const raw = body.toString("utf8");
  const force = scope.query.get("force");
  const isApply = ct === "application/apply-patch+yaml";
  if (isApply) {
    if (!scope.query.get("fieldManager")) {
      throw errors.invalidOptions("PatchOptions", [
        {
          type: "FieldValueRequired",
          field: "fieldManager",
          detail: "is required for apply patch",
        },
      ]);
    }
    if (!apply) throw errors.unsupportedMediaType(accepted.filter((t) => t !== ct));
    return apply(scope, raw, parseBool(force));
  }
  if (force !== null) {
    throw errors.invalidOptions("PatchOptions", [
      {
        type: "FieldValueForbidden",
        field: "force",
        detail: "may not be specified for non-apply patch",
      },
    ]);
  }
  const current =
    scope.subresource === "scale" ? await rest.getScaleAsync(scope) : await rest.getAsync(scope);
  let patched: unknown;
  if (ct === "application/json-patch+json") {
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
      ct === "application/merge-patch+json"
        ? applyMergePatch(current, p)
        : applyStrategicMergePatch(current, p, strategicSchema(scope));
  }
  if (!isObject(patched)) throw errors.badRequest("the patch did not produce an object");
  if (scope.subresource === "scale") return rest.updateScaleAsync(scope, patched as KubeObject);
  return rest.updateAsync(scope, patched as KubeObject, { patch: true });
}

/** The catalog schema a built-in's strategic merge patch follows (the scale subresource's Scale). */
function strategicSchema(scope: RequestScope): MergeNode | undefined {
  const name =
    scope.subresource === "scale"
      ? "io.k8s.api.autoscaling.v1.Scale"
      : definitionName({
          group: scope.info.group,
          version: scope.version.name,
          kind: scope.info.kind,
        });
  return name ? catalogNode(name) : undefined;
}
