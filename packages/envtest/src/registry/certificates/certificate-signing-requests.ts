/**
 * CertificateSigningRequests as kube-apiserver's csrStrategy treats them: the requester is the
 * authenticated user, whatever the body says (spec.username, uid, groups, extra are set from the
 * request's identity), a new request carries no status (it cannot be created approved), and an
 * update of the main resource changes metadata only (spec and status come from subresources).
 */
import type { KubeObject } from "../../api/types.js";
import type { UserInfo } from "../../rest/scope.js";
import { certificateSigningRequestPrinter } from "../printing/cluster.js";
import { genericStrategy, objectAt, type ResourceStrategy } from "../strategy.js";

export const certificateSigningRequests: ResourceStrategy = {
  ...genericStrategy,
  prepareForCreate(o: KubeObject, _warnings: string[], user?: UserInfo) {
    const spec = objectAt(o.spec);
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    if (user) {
      spec.username = user.name;
      if (user.uid) spec.uid = user.uid;
      if (user.groups.length > 0) spec.groups = [...user.groups];
      if (user.extra && Object.keys(user.extra).length > 0)
        spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
    }
    o.spec = spec;
    // Go's empty status marshals as {} (its empty conditions slice is omitted).
    o.status = {};
  },
  prepareForUpdate(o: KubeObject, old: KubeObject, subresource: string | undefined) {
    if (subresource !== undefined) return;
    o.spec = old.spec;
    if (old.status === undefined) delete o.status;
    else o.status = old.status;
  },
  printer: () => certificateSigningRequestPrinter,
};
