/** Leases (`pkg/registry/coordination/lease`): MicroTime normalization, validation, and the Holder column. */
import type { FieldError } from "@opgen/apimachinery/status";
import type { KubeObject } from "../../api/types.js";
import { normalizeMicroTimes } from "../core/events.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import { objectAt, type ResourceStrategy } from "../strategy.js";

function validateLease(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = objectAt(o.spec);
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds !== null) {
    if (typeof spec.leaseDurationSeconds !== "number" || spec.leaseDurationSeconds <= 0) {
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.leaseDurationSeconds",
        value: spec.leaseDurationSeconds,
        detail: "must be greater than 0",
      });
    }
  }
  if (typeof spec.leaseTransitions === "number" && spec.leaseTransitions < 0) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.leaseTransitions",
      value: spec.leaseTransitions,
      detail: "must be greater than or equal to 0",
    });
  }
  if (spec.preferredHolder && !spec.strategy) {
    errs.push({
      type: "FieldValueForbidden",
      field: "spec.preferredHolder",
      detail: "preferredHolder is only allowed if strategy is set",
    });
  }
  return errs;
}

export const leases: ResourceStrategy = {
  nameRule: "subdomain",
  defaults: (o) => normalizeMicroTimes(o.spec, ["acquireTime", "renewTime"]),
  validate: validateLease,
  printer: () =>
    namedPrinter(
      [
        {
          name: "Holder",
          type: "string",
          description: doc("api.coordination.v1.LeaseSpec", "holderIdentity"),
        },
      ],
      (o) => [objectAt(o.spec).holderIdentity ?? ""],
    ),
};
