/** Nodes (`pkg/registry/core/node`): the columns `kubectl get nodes` prints. */
import { nodePrinter } from "../printing/cluster-state.js";
import type { ResourceStrategy } from "../strategy.js";

export const nodes: ResourceStrategy = {
  nameRule: "subdomain",
  printer: () => nodePrinter,
};
