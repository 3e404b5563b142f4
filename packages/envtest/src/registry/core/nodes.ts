/** Nodes (`pkg/registry/core/node`): the columns `kubectl get nodes` prints. */
import type { JsonObject } from "../../api/types.js";
import { namedPrinter } from "../printing.js";
import { objectAt, type ResourceStrategy } from "../strategy.js";

export const nodes: ResourceStrategy = {
  nameRule: "subdomain",
  printer() {
    const base = namedPrinter(
      [
        { name: "Status", type: "string", description: "The status of the node" },
        { name: "Roles", type: "string", description: "The roles of the node" },
      ],
      (o) => {
        const conditions = (objectAt(o.status).conditions as JsonObject[] | undefined) ?? [];
        const ready = conditions.find((c) => c.type === "Ready");
        return [ready ? (ready.status === "True" ? "Ready" : "NotReady") : "Unknown", "<none>"];
      },
    );
    return {
      columns: [
        ...base.columns,
        { name: "Version", type: "string", description: "Kubelet Version reported by the node." },
      ],
      cells: (o) => [
        ...base.cells(o),
        (objectAt(objectAt(o.status).nodeInfo).kubeletVersion as string | undefined) ?? "",
      ],
    };
  },
};
