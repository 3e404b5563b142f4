/** PodTemplates (`pkg/registry/core/podtemplate`): ValidatePodTemplate checks the template it holds. */
import { podTemplatePrinter } from "../printing/core.js";
import type { ResourceStrategy } from "../strategy.js";
import { validatePodTemplateSpec } from "../workload-validation.js";

export const podTemplates: ResourceStrategy = {
  nameRule: "subdomain",
  validate: (o) => validatePodTemplateSpec(o.template, "template"),
  printer: () => podTemplatePrinter,
};
