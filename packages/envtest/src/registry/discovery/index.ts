/** The discovery.k8s.io group (`pkg/registry/discovery`): EndpointSlices. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { endpointSlices } from "./endpoint-slices.js";

export const discovery: GroupDefinitions = {
  group: "discovery.k8s.io",
  resources: (): ResourceDefinition[] => [{ resource: "endpointslices", strategy: endpointSlices }],
};
