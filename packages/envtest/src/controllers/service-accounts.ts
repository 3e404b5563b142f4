/**
 * kube-controller-manager's ServiceAccount controller, the part tests see: every namespace has a
 * `default` ServiceAccount, created when the namespace is (and recreated if deleted), so a pod or
 * a `RoleBinding` to `system:serviceaccount:<ns>:default` works as on a cluster. Clients may
 * change it (add imagePullSecrets): the controller only ensures it exists.
 */
import type { NamespaceObject } from "./namespace-objects.js";

export const defaultServiceAccount: NamespaceObject = {
  group: "",
  version: "v1",
  resource: "serviceaccounts",
  name: "default",
  controller: "service-account-controller",
  build: (namespace) => ({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "default", namespace },
  }),
};
