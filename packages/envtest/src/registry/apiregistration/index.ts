/** The apiregistration.k8s.io group (kube-aggregator's registry): APIServices, with its columns. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { apiServicePrinter } from "../printing/cluster.js";
import { printedStrategy } from "../strategy.js";

export const apiregistration: GroupDefinitions = {
  group: "apiregistration.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "apiservices", strategy: printedStrategy(apiServicePrinter) },
  ],
};
