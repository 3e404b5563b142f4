/**
 * The authentication.k8s.io reviews, answered and never stored: SelfSubjectReview (who am I,
 * `kubectl auth whoami`) and TokenReview (is this token valid, and whose is it: what a
 * webhook or a metrics endpoint asks the API server, as controller-runtime's secure metrics do).
 */
import { errors } from "@opgen/apimachinery/status";
import { nowTime } from "../api/meta.js";
import { isObject, type JsonObject, type KubeObject } from "../api/types.js";
import type { UserInfo } from "../rest/scope.js";
import { API_AUDIENCE } from "./service-account-tokens.js";
import type { TokenAuthenticator } from "./tokens.js";

function userInfo(user: UserInfo): JsonObject {
  return {
    username: user.name,
    ...(user.uid ? { uid: user.uid } : {}),
    groups: user.groups,
    ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
  };
}

export function selfSubjectReview(user: UserInfo): KubeObject {
  return {
    apiVersion: "authentication.k8s.io/v1",
    kind: "SelfSubjectReview",
    metadata: { creationTimestamp: nowTime() },
    status: { userInfo: userInfo(user) },
  };
}

export function tokenReview(auth: TokenAuthenticator, body: KubeObject): KubeObject {
  const spec = (isObject(body.spec) ? body.spec : {}) as JsonObject;
  if (typeof spec.token !== "string" || spec.token === "")
    throw errors.badRequest("token is required for TokenReview in authentication");
  const wanted =
    Array.isArray(spec.audiences) && spec.audiences.length
      ? (spec.audiences as string[])
      : [API_AUDIENCE];
  const user = auth.authenticateToken(spec.token, wanted);
  return {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenReview",
    metadata: { creationTimestamp: nowTime() },
    spec,
    status: user ? { authenticated: true, user: userInfo(user), audiences: wanted } : { user: {} },
  };
}
