/**
 * The flowcontrol.apiserver.k8s.io/v1 printers of kube-apiserver 1.32. FlowSchema lists come in
 * matching order (precedence, then name), as kube's list printer sorts them.
 */
import { type KubeObject, objectAt } from "../../api/types.js";
import { namedPrinter, type Printer } from "../printing.js";
import { doc } from "./describe.js";
import { int, listAt, str } from "./format.js";

const flowSchemaBase = namedPrinter(
  [
    {
      name: "PriorityLevel",
      type: "string",
      description: doc("api.flowcontrol.v1.PriorityLevelConfigurationReference", "name"),
    },
    {
      name: "MatchingPrecedence",
      type: "string",
      description: doc("api.flowcontrol.v1.FlowSchemaSpec", "matchingPrecedence"),
    },
    {
      name: "DistinguisherMethod",
      type: "string",
      description: doc("api.flowcontrol.v1.FlowSchemaSpec", "distinguisherMethod"),
    },
  ],
  (o) => {
    const spec = objectAt(o.spec);
    const method =
      spec.distinguisherMethod === undefined ? undefined : objectAt(spec.distinguisherMethod);
    return [
      str(objectAt(spec.priorityLevelConfiguration).name),
      int(spec.matchingPrecedence),
      method ? str(method.type) : "<none>",
    ];
  },
);

/** FlowSchemas; MissingPL (after Age) says whether the priority level is dangling, `?` if unknown. */
export const flowSchemaPrinter: Printer = {
  columns: [
    ...flowSchemaBase.columns,
    {
      name: "MissingPL",
      type: "string",
      description: "references a broken or non-existent PriorityLevelConfiguration",
    },
  ],
  cells(o) {
    const dangling = listAt(objectAt(o.status).conditions).find((c) => c.type === "Dangling");
    return [...flowSchemaBase.cells(o), dangling ? str(dangling.status) : "?"];
  },
  order: (items) =>
    [...items].sort((a, b) => {
      const pa = int(objectAt(a.spec).matchingPrecedence);
      const pb = int(objectAt(b.spec).matchingPrecedence);
      if (pa !== pb) return pa - pb;
      const na = a.metadata?.name ?? "";
      const nb = b.metadata?.name ?? "";
      return na < nb ? -1 : na > nb ? 1 : 0;
    }),
};

/** PriorityLevelConfigurations: the limited level's shares and queuing, `<none>` where absent. */
export const priorityLevelConfigurationPrinter: Printer = namedPrinter(
  [
    {
      name: "Type",
      type: "string",
      description: doc("api.flowcontrol.v1.PriorityLevelConfigurationSpec", "type"),
    },
    {
      name: "NominalConcurrencyShares",
      type: "string",
      description: doc(
        "api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
        "nominalConcurrencyShares",
      ),
    },
    {
      name: "Queues",
      type: "string",
      description: doc("api.flowcontrol.v1.QueuingConfiguration", "queues"),
    },
    {
      name: "HandSize",
      type: "string",
      description: doc("api.flowcontrol.v1.QueuingConfiguration", "handSize"),
    },
    {
      name: "QueueLengthLimit",
      type: "string",
      description: doc("api.flowcontrol.v1.QueuingConfiguration", "queueLengthLimit"),
    },
  ],
  (o: KubeObject) => {
    const spec = objectAt(o.spec);
    const cells: unknown[] = [str(spec.type), "<none>", "<none>", "<none>", "<none>"];
    if (spec.limited !== undefined) {
      const limited = objectAt(spec.limited);
      cells[1] = int(limited.nominalConcurrencyShares);
      const response = objectAt(limited.limitResponse);
      if (response.queuing !== undefined) {
        const q = objectAt(response.queuing);
        cells[2] = int(q.queues);
        cells[3] = int(q.handSize);
        cells[4] = int(q.queueLengthLimit);
      }
    }
    return cells;
  },
);
