/** Jobs (`pkg/registry/batch/job`, `pkg/apis/batch/v1/defaults.go`): defaults and template validation. */
import { defaultPodTemplate } from "../core/pod-defaults.js";
import { ensureObject, type ResourceStrategy } from "../strategy.js";
import { validateWorkload } from "../workload-validation.js";

export const jobs: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.parallelism === undefined) spec.parallelism = 1;
    if (spec.completions === undefined && spec.parallelism !== undefined) spec.completions = 1;
    if (spec.backoffLimit === undefined) spec.backoffLimit = 6;
    if (spec.completionMode === undefined) spec.completionMode = "NonIndexed";
    if (spec.suspend === undefined) spec.suspend = false;
    if (spec.podReplacementPolicy === undefined) spec.podReplacementPolicy = "TerminatingOrFailed";
    defaultPodTemplate(spec);
  },
  validate: (o) => validateWorkload("Job", o),
};
