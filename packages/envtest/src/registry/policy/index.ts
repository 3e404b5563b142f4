/** The policy group (`pkg/registry/policy`): PodDisruptionBudgets (pods/eviction is core's). */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { podDisruptionBudgets } from "./pod-disruption-budgets.js";

export const policy: GroupDefinitions = {
  group: "policy",
  resources: (): ResourceDefinition[] => [
    { resource: "poddisruptionbudgets", strategy: podDisruptionBudgets, generation: true },
  ],
};
