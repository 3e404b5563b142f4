/**
 * The `@rbac` marker: one RBAC rule the manager needs, written in the JSDoc of a controller (or
 * anywhere in the scanned sources). `opgen manifests` merges every `@rbac` marker into
 * `config/rbac/role.yaml` as controller-gen merges `+kubebuilder:rbac` markers.
 *
 * The parser checks names and value types; the RBAC generator checks what the API server would
 * reject (URLs mixed with resources, URLs in a namespaced Role, resources without groups) and
 * unknown verbs, because those depend on several arguments together.
 */
import type { MarkerDefinition } from "../../markers/types.js";

export const rbacDefinitions: readonly MarkerDefinition[] = [
  {
    name: "rbac",
    targets: ["controller"],
    repeatable: true,
    group: "rbac",
    help: "Grants the manager an RBAC rule; all @rbac markers merge into config/rbac/role.yaml.",
    example:
      "@rbac groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete",
    kubebuilder: "+kubebuilder:rbac",
    args: [
      {
        name: "groups",
        type: "list",
        help: 'API groups of the resources; `core` or `""` is the core group (pods, services, ...).',
      },
      {
        name: "resources",
        type: "list",
        help: "Resources (plural, lower-case), with subresources as `deployments/status`.",
      },
      {
        name: "resourceNames",
        type: "list",
        help: "Restricts the rule to objects with these names (never restricts create or list).",
      },
      {
        name: "verbs",
        type: "list",
        required: true,
        help: "Verbs: get, list, watch, create, update, patch, delete, deletecollection, ... or `*`.",
      },
      {
        name: "urls",
        type: "list",
        help: "Non-resource URLs (`/metrics`); not together with groups, resources or namespace.",
      },
      {
        name: "namespace",
        type: "string",
        help: "Put the rule in a Role of this namespace instead of the ClusterRole.",
      },
      {
        name: "roleName",
        type: "string",
        help: "Name of the Role or ClusterRole holding the rule (default: the generator's role name).",
      },
    ],
  },
];
