/**
 * Who the components envtest runs inside the server are when they write, and the field manager
 * their writes are recorded under, as on a cluster: kube-controller-manager's controllers each as
 * its own service account in kube-system (`--use-service-account-credentials`), their managedFields
 * entries named after the binary (client-go's default field manager is the user agent's first
 * word); the kubelet as its node; the scheduler; and kube-apiserver's own loopback client.
 */
import type { UserInfo } from "../rest/scope.js";

/** A writer: the user admission sees and the field manager managedFields record. */
export interface Identity {
  user: UserInfo;
  manager: string;
}

/** The field manager of every kube-controller-manager controller without an explicit one. */
export const CONTROLLER_MANAGER = "kube-controller-manager";

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

/** A kube-controller-manager controller writing as its service account. */
export function controllerIdentity(controller: string): Identity {
  return { user: controllerUser(controller), manager: CONTROLLER_MANAGER };
}

/** kube-apiserver's loopback client (its own controllers, bootstrap objects). */
export function apiserverIdentity(manager = "kube-apiserver"): Identity {
  return { user: { name: "system:apiserver", groups: ["system:masters"] }, manager };
}

/** A kubelet, authenticated by its node client certificate. */
export function kubeletIdentity(node: string): Identity {
  return {
    user: { name: `system:node:${node}`, groups: ["system:nodes", "system:authenticated"] },
    manager: "kubelet",
  };
}

/** kube-scheduler. */
export function schedulerIdentity(): Identity {
  return {
    user: { name: "system:kube-scheduler", groups: ["system:authenticated"] },
    manager: "kube-scheduler",
  };
}
