/**
 * Authentication (`endpoints/filters/authentication.go`): a verified client certificate
 * (auth/x509.ts) or else the bearer token names the user, as kube-apiserver's union authenticator
 * tries x509 first; neither is 401, except on the public health and version endpoints, which kube
 * serves to anonymous users (the `system:public-info-viewer` role).
 */
import { errors } from "@opgen/apimachinery/status";
import type { TokenAuthenticator } from "../../auth/tokens.js";
import { authenticateClientCertificate } from "../../auth/x509.js";
import type { Filter } from "./context.js";

const PUBLIC = /^\/(healthz|livez|readyz)(\/[^/]+)?$|^\/version\/?$/;

export function isPublicPath(path: string): boolean {
  return PUBLIC.test(path);
}

export function authentication(auth: TokenAuthenticator): Filter {
  return async (ctx, next) => {
    const user =
      authenticateClientCertificate(ctx.req.socket) ??
      auth.authenticate(ctx.req.headers.authorization);
    if (user) ctx.user = user;
    else if (isPublicPath(ctx.info.path)) {
      ctx.user = { name: "system:anonymous", groups: ["system:unauthenticated"] };
    } else throw errors.unauthorized();
    await next();
  };
}
