/**
 * The rbac.authorization.k8s.io group (`pkg/registry/rbac`). RBAC's escalation check, which kube
 * runs in these resources' storage, is in the admission list (admission/plugins/index.ts).
 */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { clusterRoleBindings, rbacObjects, roleBindings } from "./rbac.js";

export const rbac: GroupDefinitions = {
  group: "rbac.authorization.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "roles", strategy: rbacObjects },
    { resource: "rolebindings", strategy: roleBindings },
    { resource: "clusterroles", strategy: rbacObjects },
    { resource: "clusterrolebindings", strategy: clusterRoleBindings },
  ],
};
