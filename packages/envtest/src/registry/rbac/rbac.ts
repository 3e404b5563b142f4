/**
 * RBAC objects (`pkg/registry/rbac`): names are path segments (`ValidateRBACName`), so
 * `system:controller:x` is valid; a binding's roleRef cannot change; bindings print their role
 * and, wide, their subjects.
 */
import { type FieldError, goValue } from "@opgen/apimachinery/status";
import { deepEqual, type KubeObject } from "../../api/types.js";
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

export const roleBindings: ResourceStrategy = {
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
  printer: () =>
    withWide(
      namedPrinter([{ name: "Role", type: "string", description: "Role of this binding" }], (o) => {
        const ref = objectAt(o.roleRef);
        return [`${ref.kind ?? ""}/${ref.name ?? ""}`];
      }),
      [
        { name: "Users", type: "string", description: "Users in the binding" },
        { name: "Groups", type: "string", description: "Groups in the binding" },
        { name: "ServiceAccounts", type: "string", description: "ServiceAccounts in the binding" },
      ],
      (o) => [subjects(o, "User"), subjects(o, "Group"), subjects(o, "ServiceAccount")],
    ),
};
