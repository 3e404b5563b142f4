/**
 * How envtest's emulated kube-controller-manager writes: each controller as its own service
 * account in kube-system (kube-controller-manager's `--use-service-account-credentials`), and
 * status written through the status subresource, as the real controllers do, so admission,
 * managedFields and watches see what a cluster shows.
 */
import { ApiError } from "@opgen/apimachinery/status";
import type { Registry } from "../api/registry.js";
import type { KubeObject } from "../api/types.js";
import type { ObjectRest } from "../rest/objects.js";
import type { RequestScope, UserInfo } from "../rest/scope.js";

/** The identity kube-controller-manager gives `controller` (e.g. `resourcequota-controller`). */
export function controllerUser(controller: string): UserInfo {
  return {
    name: `system:serviceaccount:kube-system:${controller}`,
    groups: [
      "system:serviceaccounts",
      "system:serviceaccounts:kube-system",
      "system:authenticated",
    ],
  };
}

/**
 * Writes `obj`'s status through `<resource>/status` as `user`, recorded under `manager`. A
 * refusal (a conflict, the object gone meanwhile) is dropped: the object's next event queues
 * the controller again, as a requeue would.
 */
export async function writeStatus(
  deps: { rest: ObjectRest; registry: Registry },
  gvr: { group: string; version: string; resource: string },
  obj: KubeObject,
  user: UserInfo,
  manager: string,
): Promise<void> {
  const found = deps.registry.lookup(gvr.group, gvr.version, gvr.resource);
  if (!found) return;
  const scope: RequestScope = {
    info: found.info,
    version: found.version,
    ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
    name: obj.metadata?.name ?? "",
    subresource: "status",
    query: new URLSearchParams(),
    user,
    manager,
    warnings: [],
    readOnlyResult: true,
  };
  try {
    await deps.rest.updateAsync(scope, obj);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
}
