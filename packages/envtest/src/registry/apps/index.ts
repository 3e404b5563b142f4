/** The apps group (`pkg/registry/apps`): the workloads, which keep a generation, and their revisions. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { labels } from "../field-labels.js";
import { controllerRevisionPrinter } from "../printing/cluster.js";
import { printedStrategy } from "../strategy.js";
import { daemonSets, deployments, replicaSets, statefulSets } from "./workloads.js";

export const apps: GroupDefinitions = {
  group: "apps",
  resources: (): ResourceDefinition[] => [
    { resource: "deployments", strategy: deployments, generation: true },
    {
      resource: "replicasets",
      strategy: replicaSets,
      generation: true,
      fieldLabels: labels("status.replicas"),
    },
    { resource: "statefulsets", strategy: statefulSets, generation: true },
    { resource: "daemonsets", strategy: daemonSets, generation: true },
    { resource: "controllerrevisions", strategy: printedStrategy(controllerRevisionPrinter) },
  ],
};
