/** The scheduling.k8s.io group (`pkg/registry/scheduling`): PriorityClasses. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { priorityClasses } from "./priority-classes.js";

export const scheduling: GroupDefinitions = {
  group: "scheduling.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "priorityclasses", strategy: priorityClasses },
  ],
};
