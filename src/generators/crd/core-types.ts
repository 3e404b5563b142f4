/**
 * Schemas of `@kubernetes/client-node` models (V1PodTemplateSpec, V1ResourceRequirements ...).
 * Placeholder provider until the declaration reader lands: knows no model, so a field typed with
 * one is reported as an error naming the type.
 */
import type { ProjectSources } from "../project-sources.js";
import type { CoreTypeProvider } from "./walker.js";

export function clientNodeTypes(_sources: ProjectSources): CoreTypeProvider {
  return { schema: () => undefined };
}
