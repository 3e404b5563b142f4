/**
 * `POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token`: a TokenRequest for an existing
 * service account, answered with a token (auth/service-account-tokens.ts) and never stored.
 */
import { errors } from "@opgen/apimachinery/status";
import type { KubeObject } from "../../api/types.js";
import type { ServiceAccountTokens } from "../../auth/service-account-tokens.js";
import type { ObjectRest } from "../../rest/objects.js";
import type { RequestScope } from "../../rest/scope.js";

export function requestToken(
  rest: ObjectRest,
  tokens: ServiceAccountTokens,
  scope: RequestScope,
  body: KubeObject,
): { code: number; body: KubeObject } {
  if (body.kind !== undefined && body.kind !== "TokenRequest")
    throw errors.badRequest(`expected TokenRequest, got ${String(body.kind)}`);
  const { subresource: _, ...parent } = scope;
  const sa = rest.get(parent);
  return { code: 201, body: tokens.issue(sa, body) };
}
