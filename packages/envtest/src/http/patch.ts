/**
 * PATCH dispatch by Content-Type (`handlers/patch.go`): JSON patch, merge patch, strategic merge
 * patch (built-ins only: custom resources answer 415 with the real message) and server-side
 * apply, with PatchOptions validation. rest/patch.ts applies the patch and writes the result
 * through the same update path as a PUT.
 */
import type { IncomingMessage } from "node:http";
import { errors } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import type { ObjectRest } from "../rest/objects.js";
import { patchObject } from "../rest/patch.js";
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
  const type =
    ct === "application/json-patch+json"
      ? "json"
      : ct === "application/merge-patch+json"
        ? "merge"
        : "strategic";
  return patchObject(rest, scope, type, raw);
}
