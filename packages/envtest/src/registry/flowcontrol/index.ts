/** The flowcontrol.apiserver.k8s.io group (`pkg/registry/flowcontrol`): kube's columns. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from "../printing/flowcontrol.js";
import { printedStrategy } from "../strategy.js";

export const flowcontrol: GroupDefinitions = {
  group: "flowcontrol.apiserver.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "flowschemas", strategy: printedStrategy(flowSchemaPrinter) },
    {
      resource: "prioritylevelconfigurations",
      strategy: printedStrategy(priorityLevelConfigurationPrinter),
    },
  ],
};
