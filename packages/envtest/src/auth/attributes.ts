/**
 * What a request needs to be authorized (kube's `authorizer.Attributes`): the HTTP filter builds
 * them, RBAC and the admission plugins that authorize (escalation, CSR approval and signing,
 * policies' `authorizer` variable) read them. Here, below both, so neither reaches into the other.
 */
import type { UserInfo } from "../rest/scope.js";

/** What a request needs to be authorized (RBAC plugs in here). */
export interface Attributes {
  user: UserInfo;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  path: string;
  resourceRequest: boolean;
}
