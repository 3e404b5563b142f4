/** The coordination.k8s.io group (`pkg/registry/coordination`): Leases. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { leases } from "./leases.js";

export const coordination: GroupDefinitions = {
  group: "coordination.k8s.io",
  resources: (): ResourceDefinition[] => [{ resource: "leases", strategy: leases }],
};
