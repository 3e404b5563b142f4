/** The node.k8s.io group (`pkg/registry/node`): RuntimeClasses, with kube's columns. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { runtimeClassPrinter } from "../printing/cluster.js";
import { printedStrategy } from "../strategy.js";

export const node: GroupDefinitions = {
  group: "node.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "runtimeclasses", strategy: printedStrategy(runtimeClassPrinter) },
  ],
};
