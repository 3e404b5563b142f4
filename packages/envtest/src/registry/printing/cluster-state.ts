/**
 * kube-apiserver 1.32's printers for Nodes, Events (core/v1 and events.k8s.io/v1 share one
 * storage and one table) and PriorityClasses (`pkg/printers/internalversion/printers.go`).
 * kube-apiserver renders every table wide; kubectl hides priority-1 columns unless `-o wide`.
 */
import type { FieldDoc } from "../../api/resource.js";
import { type JsonObject, type KubeObject, objectAt } from "../../api/types.js";
import { age, ageColumn, nameColumn, namedPrinter, type Printer } from "../printing.js";
import { doc } from "./describe.js";
import { listAt, str } from "./format.js";

const ROLE_PREFIX = "node-role.kubernetes.io/";

/** `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value. */
function nodeRoles(o: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(o.metadata?.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX) && k.length > ROLE_PREFIX.length)
      roles.add(k.slice(ROLE_PREFIX.length));
    else if (k === "kubernetes.io/role" && v !== "") roles.add(v);
  }
  return [...roles].sort().join(",") || "<none>";
}

function nodeAddress(o: KubeObject, type: string): string {
  const a = listAt(objectAt(o.status).addresses).find((x) => x.type === type);
  return a ? str(a.address) : "<none>";
}

const nodeInfo = "api.core.v1.NodeSystemInfo";

export const nodePrinter: Printer = (() => {
  const base = namedPrinter(
    [
      { name: "Status", type: "string", description: "The status of the node" },
      { name: "Roles", type: "string", description: "The roles of the node" },
    ],
    (o) => {
      const ready = listAt(objectAt(o.status).conditions).find((c) => c.type === "Ready");
      const status = [ready ? (ready.status === "True" ? "Ready" : "NotReady") : "Unknown"];
      if (objectAt(o.spec).unschedulable === true) status.push("SchedulingDisabled");
      return [status.join(","), nodeRoles(o)];
    },
  );
  const wide = (name: string, description: FieldDoc) => ({
    name,
    type: "string",
    description,
    priority: 1,
  });
  return {
    columns: [
      ...base.columns,
      { name: "Version", type: "string", description: doc(nodeInfo, "kubeletVersion") },
      wide("Internal-IP", doc("api.core.v1.NodeStatus", "addresses")),
      wide("External-IP", doc("api.core.v1.NodeStatus", "addresses")),
      wide("OS-Image", doc(nodeInfo, "osImage")),
      wide("Kernel-Version", doc(nodeInfo, "kernelVersion")),
      wide("Container-Runtime", doc(nodeInfo, "containerRuntimeVersion")),
    ],
    cells(o) {
      const info = objectAt(objectAt(o.status).nodeInfo);
      const known = (v: unknown) => str(v) || "<unknown>";
      return [
        ...base.cells(o),
        str(info.kubeletVersion),
        nodeAddress(o, "InternalIP"),
        nodeAddress(o, "ExternalIP"),
        known(info.osImage),
        known(info.kernelVersion),
        known(info.containerRuntimeVersion),
      ];
    },
  };
})();

/** An event in its core/v1 form (events.k8s.io/v1 names the same fields differently). */
interface CoreEventView {
  first: unknown;
  last: unknown;
  eventTime: unknown;
  series?: JsonObject;
  count: unknown;
  type: unknown;
  reason: unknown;
  regarding: JsonObject;
  component: string;
  host: string;
  message: unknown;
}

function coreView(o: KubeObject): CoreEventView {
  const source = objectAt(o.source);
  return {
    first: o.firstTimestamp,
    last: o.lastTimestamp,
    eventTime: o.eventTime,
    ...(o.series ? { series: objectAt(o.series) } : {}),
    count: o.count,
    type: o.type,
    reason: o.reason,
    regarding: objectAt(o.involvedObject),
    component: str(source.component) || str(o.reportingController),
    host: str(source.host) || str(o.reportingInstance),
    message: o.message,
  };
}

/** An events.k8s.io/v1 Event as the core/v1 one kube converts it to before printing. */
function eventsV1View(o: KubeObject): CoreEventView {
  const source = objectAt(o.deprecatedSource);
  return {
    first: o.deprecatedFirstTimestamp,
    last: o.deprecatedLastTimestamp,
    eventTime: o.eventTime,
    ...(o.series ? { series: objectAt(o.series) } : {}),
    count: o.deprecatedCount,
    type: o.type,
    reason: o.reason,
    regarding: objectAt(o.regarding),
    component: str(source.component) || str(o.reportingController),
    host: str(source.host) || str(o.reportingInstance),
    message: o.note,
  };
}

const coreEvent = "api.core.v1.Event";

/**
 * Events: Last Seen from the series or the last timestamp (the first one when unset), First Seen
 * from the first timestamp or the event time, a count of 1 for singletons.
 */
function eventPrinterOf(view: (o: KubeObject) => CoreEventView): Printer {
  return {
    columns: [
      { name: "Last Seen", type: "string", description: doc(coreEvent, "lastTimestamp") },
      { name: "Type", type: "string", description: doc(coreEvent, "type") },
      { name: "Reason", type: "string", description: doc(coreEvent, "reason") },
      { name: "Object", type: "string", description: doc(coreEvent, "involvedObject") },
      {
        name: "Subobject",
        type: "string",
        priority: 1,
        description: doc("api.core.v1.ObjectReference", "fieldPath"),
      },
      { name: "Source", type: "string", priority: 1, description: doc(coreEvent, "source") },
      { name: "Message", type: "string", description: doc(coreEvent, "message") },
      {
        name: "First Seen",
        type: "string",
        priority: 1,
        description: doc(coreEvent, "firstTimestamp"),
      },
      { name: "Count", type: "string", priority: 1, description: doc(coreEvent, "count") },
      { ...nameColumn, priority: 1 },
    ],
    cells(o) {
      const e = view(o);
      const first = typeof e.first === "string" ? age(e.first) : age(e.eventTime);
      let last = typeof e.last === "string" ? age(e.last) : first;
      let count = typeof e.count === "number" ? e.count : 0;
      if (e.series) {
        last = age(e.series.lastObservedTime);
        count = typeof e.series.count === "number" ? e.series.count : 0;
      } else if (count === 0) count = 1;
      const kind = str(e.regarding.kind).toLowerCase();
      const name = str(e.regarding.name);
      return [
        last,
        str(e.type),
        str(e.reason),
        name ? `${kind}/${name}` : kind,
        str(e.regarding.fieldPath),
        e.host ? `${e.component}, ${e.host}` : e.component,
        str(e.message).trim(),
        first,
        count,
        o.metadata?.name,
      ];
    },
  };
}

export const eventPrinter = eventPrinterOf(coreView);
export const eventsV1Printer = eventPrinterOf(eventsV1View);

const priorityClass = "api.scheduling.v1.PriorityClass";

/** PriorityClasses: PreemptionPolicy follows Age and shows without `-o wide`, as in kube. */
export const priorityClassPrinter: Printer = {
  columns: [
    nameColumn,
    { name: "Value", type: "integer", description: doc(priorityClass, "value") },
    { name: "Global-Default", type: "boolean", description: doc(priorityClass, "globalDefault") },
    ageColumn,
    {
      name: "PreemptionPolicy",
      type: "string",
      description: doc(priorityClass, "preemptionPolicy"),
    },
  ],
  cells: (o) => [
    o.metadata?.name,
    typeof o.value === "number" ? o.value : 0,
    o.globalDefault === true,
    age(o.metadata?.creationTimestamp),
    str(o.preemptionPolicy),
  ],
};
