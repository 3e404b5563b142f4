/**
 * ReplicationControllers (`pkg/registry/core/replicationcontroller`): replicas default to 1 and
 * the selector to the template's labels, the template is validated like a ReplicaSet's, and
 * kubectl's columns.
 */
import type { FieldError } from "@opgen/apimachinery/status";
import { doc } from "../printing/describe.js";
import { labelSet } from "../printing/format.js";
import { namedPrinter, templateWide } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validatePodTemplateSpec } from "../workload-validation.js";
import { defaultPodTemplate } from "./pod-defaults.js";

export const replicationControllers: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.replicas === undefined) spec.replicas = 1;
    const labels = objectAt(objectAt(objectAt(spec.template).metadata).labels);
    if (spec.selector === undefined && Object.keys(labels).length > 0)
      spec.selector = { ...labels };
    if (o.metadata && o.metadata.labels === undefined && Object.keys(labels).length > 0)
      o.metadata.labels = { ...(labels as Record<string, string>) };
    defaultPodTemplate(spec);
  },
  validate(o) {
    const errs: FieldError[] = [];
    const spec = objectAt(o.spec);
    const selector = objectAt(spec.selector) as Record<string, string>;
    const labels = objectAt(objectAt(objectAt(spec.template).metadata).labels);
    if (Object.keys(selector).length === 0)
      errs.push({ type: "FieldValueRequired", field: "spec.selector", detail: "" });
    else if (Object.entries(selector).some(([k, v]) => labels[k] !== v))
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.template.metadata.labels",
        value: labels,
        detail: "`selector` does not match template `labels`",
      });
    if (spec.template !== undefined)
      errs.push(...validatePodTemplateSpec(spec.template, "spec.template", ["Always"]));
    return errs;
  },
  printer: () =>
    templateWide(
      namedPrinter(
        [
          {
            name: "Desired",
            type: "integer",
            description: doc("api.core.v1.ReplicationControllerSpec", "replicas"),
          },
          {
            name: "Current",
            type: "integer",
            description: doc("api.core.v1.ReplicationControllerStatus", "replicas"),
          },
          {
            name: "Ready",
            type: "integer",
            description: doc("api.core.v1.ReplicationControllerStatus", "readyReplicas"),
          },
        ],
        (o) => [
          objectAt(o.spec).replicas ?? 0,
          objectAt(o.status).replicas ?? 0,
          objectAt(o.status).readyReplicas ?? 0,
        ],
      ),
      {
        selector: doc("api.core.v1.ReplicationControllerSpec", "selector"),
        // An RC's selector is a label set (`labels.FormatLabels`), not a LabelSelector.
        selectorCell: (o) => labelSet(objectAt(o.spec).selector),
      },
    ),
};
