/**
 * RBAC objects (`pkg/registry/rbac`): names are path segments (`ValidateRBACName`), so
 * `system:controller:x` is valid; a binding's roleRef cannot change; bindings print their role
 * and, wide, their subjects.
 */
import { type FieldError, goValue } from "@opgen/apimachinery/status";
import { deepEqual, type KubeObject } from "../../api/types.js";
import { doc } from "../printing/describe.js";
import { namedPrinter, withWide } from "../printing.js";
import { objectAt, type ResourceStrategy } from "../strategy.js";

export const rbacObjects: ResourceStrategy = { nameRule: "path" };

function subjects(o: KubeObject, kind: string): string {
  const list = (Array.isArray(o.subjects) ? o.subjects : []) as {
    kind?: string;
    name?: string;
    namespace?: string;
  }[];
  return list
    .filter((s) => s.kind === kind)
    .map((s) => (kind === "ServiceAccount" ? `${s.namespace ?? ""}/${s.name}` : s.name))
    .join(", ");
}

/** A binding kind's printer: kube words the subject columns after the kind. */
function bindingPrinter(kind: "RoleBinding" | "ClusterRoleBinding") {
  const noun = kind === "RoleBinding" ? "roleBinding" : "clusterRoleBinding";
  return withWide(
    namedPrinter(
      [{ name: "Role", type: "string", description: doc(`api.rbac.v1.${kind}`, "roleRef") }],
      (o) => {
        const ref = objectAt(o.roleRef);
        return [`${ref.kind ?? ""}/${ref.name ?? ""}`];
      },
    ),
    [
      { name: "Users", type: "string", description: `Users in the ${noun}` },
      { name: "Groups", type: "string", description: `Groups in the ${noun}` },
      { name: "ServiceAccounts", type: "string", description: `ServiceAccounts in the ${noun}` },
    ],
    (o) => [subjects(o, "User"), subjects(o, "Group"), subjects(o, "ServiceAccount")],
  );
}

function bindingStrategy(kind: "RoleBinding" | "ClusterRoleBinding"): ResourceStrategy {
  return {
    nameRule: "path",
    validateUpdate(o, old): FieldError[] {
      if (deepEqual(o.roleRef, old.roleRef)) return [];
      const ref = objectAt(o.roleRef);
      return [
        {
          type: "FieldValueInvalid",
          field: "roleRef",
          value: goValue(
            `rbac.RoleRef{APIGroup:${JSON.stringify(ref.apiGroup ?? "")}, Kind:${JSON.stringify(ref.kind ?? "")}, Name:${JSON.stringify(ref.name ?? "")}}`,
          ),
          detail: "cannot change roleRef",
        },
      ];
    },
    printer: () => bindingPrinter(kind),
  };
}

export const roleBindings = bindingStrategy("RoleBinding");
export const clusterRoleBindings = bindingStrategy("ClusterRoleBinding");
