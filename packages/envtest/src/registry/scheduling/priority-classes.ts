/**
 * PriorityClasses (`pkg/registry/scheduling/priorityclass`): `preemptionPolicy` defaults to
 * PreemptLowerPriority, and the `system-` prefix belongs to the two classes every cluster has.
 */
import type { FieldError } from "@opgen/apimachinery/status";
import { priorityClassPrinter } from "../printing/cluster-state.js";
import type { ResourceStrategy } from "../strategy.js";

const SYSTEM = new Set(["system-node-critical", "system-cluster-critical"]);

export const priorityClasses: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    if (o.preemptionPolicy === undefined) o.preemptionPolicy = "PreemptLowerPriority";
  },
  validate(o) {
    const errs: FieldError[] = [];
    const name = o.metadata?.name ?? "";
    if (name.startsWith("system-") && !SYSTEM.has(name))
      errs.push({
        type: "FieldValueInvalid",
        field: "metadata.name",
        value: name,
        detail: "priority class names with 'system-' prefix are reserved",
      });
    if (typeof o.value === "number" && o.value > 1_000_000_000 && !SYSTEM.has(name))
      errs.push({
        type: "FieldValueForbidden",
        field: "value",
        detail: "maximum allowed value of a user defined priority is 1000000000",
      });
    return errs;
  },
  printer: () => priorityClassPrinter,
};
