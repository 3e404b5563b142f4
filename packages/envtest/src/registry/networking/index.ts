/** The networking.k8s.io group (`pkg/registry/networking`). */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { ingressClassPrinter } from "../printing/networking.js";
import { printedStrategy } from "../strategy.js";
import { ingresses } from "./ingresses.js";
import { networkPolicies } from "./network-policies.js";

export const networking: GroupDefinitions = {
  group: "networking.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "ingresses", strategy: ingresses, generation: true },
    {
      resource: "networkpolicies",
      strategy: networkPolicies,
      generation: true,
    },
    { resource: "ingressclasses", strategy: printedStrategy(ingressClassPrinter) },
  ],
};
