/**
 * The `meta.k8s.io/v1` Table format for `kubectl get`: CRD `additionalPrinterColumns`
 * (`apiext: tableconvertor.go`, cell typing and human durations included), real printers for
 * the built-ins clients look at most, and the default Name/Created At convertor otherwise.
 */
import { errors } from "@opgen/apimachinery/status";
import { isObject, type JsonObject, type KubeObject, type PrinterColumn } from "../api/types.js";
import type { RequestScope } from "../rest/scope.js";
import { evaluateJsonPath } from "./jsonpath.js";

export interface TableOptions {
  includeObject: "None" | "Metadata" | "Object";
  noHeaders?: boolean;
}

/** Whether the Accept header asks for a Table (and with which options). */
export function wantsTable(
  accept: string | undefined,
  query: URLSearchParams,
): TableOptions | undefined {
  if (!accept) return undefined;
  const first = accept.split(",")[0]!.replace(/\s/g, "");
  const params = new Set(first.split(";").slice(1));
  if (!params.has("as=Table") || !params.has("g=meta.k8s.io")) return undefined;
  const inc = query.get("includeObject") ?? "Metadata";
  if (inc !== "None" && inc !== "Metadata" && inc !== "Object") {
    throw errors.badRequest(`unrecognized includeObject value: "${inc}"`);
  }
  return { includeObject: inc };
}

const nameDescription =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const createdDescription =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** apimachinery `duration.HumanDuration`. */
export function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < -1) return "<invalid>";
  if (s < 0) return "0s";
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) {
    const sec = s % 60;
    return sec === 0 ? `${m}m` : `${m}m${sec}s`;
  }
  if (m < 180) return `${m}m`;
  const h = Math.floor(s / 3600);
  if (h < 8) {
    const min = m % 60;
    return min === 0 ? `${h}h` : `${h}h${min}m`;
  }
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (h < 24 * 8) {
    const hr = h % 24;
    return hr === 0 ? `${d}d` : `${d}d${hr}h`;
  }
  if (h < 24 * 365 * 2) return `${d}d`;
  const y = Math.floor(h / (24 * 365));
  if (y < 8) {
    const dd = d % 365;
    return dd === 0 ? `${y}y` : `${y}y${dd}d`;
  }
  return `${y}y`;
}

function age(ts: unknown): string {
  if (typeof ts !== "string") return "<unknown>";
  const t = Date.parse(ts);
  return Number.isNaN(t) ? "<invalid>" : humanDuration(Date.now() - t);
}

function cellFor(col: PrinterColumn, obj: KubeObject): unknown {
  let values: unknown[];
  try {
    values = evaluateJsonPath(obj, col.jsonPath);
  } catch {
    return null;
  }
  if (values.length === 0) return null;
  const v = values[0];
  switch (col.type) {
    case "integer":
      return typeof v === "number" ? Math.trunc(v) : null;
    case "number":
      return typeof v === "number" ? v : null;
    case "boolean":
      return typeof v === "boolean" ? v : null;
    case "date":
      return typeof v === "string" ? age(v) : null;
    default:
      return values.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" ");
  }
}

interface Printer {
  columns: {
    name: string;
    type: string;
    format?: string;
    description: string;
    priority?: number;
  }[];
  cells(o: KubeObject): unknown[];
}

function countReady(o: KubeObject): string {
  const statuses =
    ((o.status as JsonObject | undefined)?.containerStatuses as JsonObject[] | undefined) ?? [];
  const total =
    ((o.spec as JsonObject | undefined)?.containers as unknown[] | undefined)?.length ?? 0;
  return `${statuses.filter((s) => s.ready).length}/${total}`;
}

function builtinPrinter(group: string, resource: string): Printer | undefined {
  const name = { name: "Name", type: "string", format: "name", description: nameDescription };
  const ageCol = { name: "Age", type: "string", description: createdDescription };
  const st = (o: KubeObject) => (o.status ?? {}) as JsonObject;
  const sp = (o: KubeObject) => (o.spec ?? {}) as JsonObject;
  switch (`${group}/${resource}`) {
    case "/namespaces":
      return {
        columns: [
          name,
          { name: "Status", type: "string", description: "The status of the namespace" },
          ageCol,
        ],
        cells: (o) => [o.metadata?.name, st(o).phase ?? "", age(o.metadata?.creationTimestamp)],
      };
    case "/configmaps":
      return {
        columns: [
          name,
          { name: "Data", type: "string", description: "Data contains the configuration data." },
          ageCol,
        ],
        cells: (o) => [
          o.metadata?.name,
          Object.keys((o.data as JsonObject | undefined) ?? {}).length +
            Object.keys((o.binaryData as JsonObject | undefined) ?? {}).length,
          age(o.metadata?.creationTimestamp),
        ],
      };
    case "/secrets":
      return {
        columns: [
          name,
          { name: "Type", type: "string", description: "The type of the secret" },
          { name: "Data", type: "string", description: "Data contains the secret data." },
          ageCol,
        ],
        cells: (o) => [
          o.metadata?.name,
          o.type ?? "",
          Object.keys((o.data as JsonObject | undefined) ?? {}).length,
          age(o.metadata?.creationTimestamp),
        ],
      };
    case "/pods":
      return {
        columns: [
          name,
          {
            name: "Ready",
            type: "string",
            description: "The aggregate readiness state of this pod for accepting traffic.",
          },
          {
            name: "Status",
            type: "string",
            description: "The aggregate status of the containers in this pod.",
          },
          {
            name: "Restarts",
            type: "string",
            description:
              "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
          },
          ageCol,
          {
            name: "IP",
            type: "string",
            priority: 1,
            description: "The IP address assigned to the pod",
          },
          {
            name: "Node",
            type: "string",
            priority: 1,
            description: "The name of the node this pod is assigned to",
          },
        ],
        cells: (o) => [
          o.metadata?.name,
          countReady(o),
          o.metadata?.deletionTimestamp ? "Terminating" : (st(o).phase ?? "Pending"),
          "0",
          age(o.metadata?.creationTimestamp),
          st(o).podIP ?? "<none>",
          sp(o).nodeName ?? "<none>",
        ],
      };
    case "apps/deployments":
      return {
        columns: [
          name,
          { name: "Ready", type: "string", description: "Number of the pod with ready state" },
          {
            name: "Up-to-date",
            type: "string",
            description:
              "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
          },
          {
            name: "Available",
            type: "string",
            description:
              "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
          },
          ageCol,
        ],
        cells: (o) => [
          o.metadata?.name,
          `${st(o).readyReplicas ?? 0}/${sp(o).replicas ?? 0}`,
          st(o).updatedReplicas ?? 0,
          st(o).availableReplicas ?? 0,
          age(o.metadata?.creationTimestamp),
        ],
      };
    case "/services":
      return {
        columns: [
          name,
          { name: "Type", type: "string", description: "The type of service." },
          { name: "Cluster-IP", type: "string", description: "The cluster IP of the service." },
          { name: "External-IP", type: "string", description: "The external IP of the service." },
          { name: "Port(s)", type: "string", description: "The ports of the service." },
          ageCol,
          {
            name: "Selector",
            type: "string",
            priority: 1,
            description: "The selector of the service.",
          },
        ],
        cells: (o) => {
          const spec = sp(o);
          const type = String(spec.type ?? "ClusterIP");
          const ingress =
            ((st(o).loadBalancer as JsonObject | undefined)?.ingress as JsonObject[] | undefined) ??
            [];
          const external =
            type === "ExternalName"
              ? String(spec.externalName ?? "")
              : ingress.length
                ? ingress.map((i) => i.ip ?? i.hostname).join(",")
                : type === "LoadBalancer"
                  ? "<pending>"
                  : "<none>";
          const ports = ((spec.ports as JsonObject[] | undefined) ?? [])
            .map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ""}/${p.protocol ?? "TCP"}`)
            .join(",");
          const selector = Object.entries(
            (spec.selector as Record<string, string> | undefined) ?? {},
          )
            .map(([k, v]) => `${k}=${v}`)
            .join(",");
          return [
            o.metadata?.name,
            type,
            spec.clusterIP ?? "<none>",
            external,
            ports || "<none>",
            age(o.metadata?.creationTimestamp),
            selector || "<none>",
          ];
        },
      };
    case "/events":
      return {
        columns: [
          {
            name: "Last Seen",
            type: "string",
            description: "Time since the most recent occurrence",
          },
          {
            name: "Type",
            type: "string",
            description:
              "Type of this event (Normal, Warning), new types could be added in the future.",
          },
          {
            name: "Reason",
            type: "string",
            description:
              "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
          },
          { name: "Object", type: "string", description: "The object that this event is about." },
          {
            name: "Message",
            type: "string",
            description: "A human-readable description of the status of this operation.",
          },
        ],
        cells: (o) => {
          const involved = (o.involvedObject ?? {}) as JsonObject;
          const last =
            o.lastTimestamp ??
            ((o.series as JsonObject | undefined)?.lastObservedTime as string | undefined) ??
            o.eventTime ??
            o.metadata?.creationTimestamp;
          return [
            age(last),
            o.type ?? "",
            o.reason ?? "",
            `${String(involved.kind ?? "").toLowerCase()}/${involved.name ?? ""}`,
            String(o.message ?? "").trim(),
          ];
        },
      };
    case "/nodes":
      return {
        columns: [
          name,
          { name: "Status", type: "string", description: "The status of the node" },
          { name: "Roles", type: "string", description: "The roles of the node" },
          ageCol,
          { name: "Version", type: "string", description: "Kubelet Version reported by the node." },
        ],
        cells: (o) => {
          const ready = ((st(o).conditions as JsonObject[] | undefined) ?? []).find(
            (c) => c.type === "Ready",
          );
          const status = ready ? (ready.status === "True" ? "Ready" : "NotReady") : "Unknown";
          const version =
            ((st(o).nodeInfo as JsonObject | undefined)?.kubeletVersion as string | undefined) ??
            "";
          return [o.metadata?.name, status, "<none>", age(o.metadata?.creationTimestamp), version];
        },
      };
    case "apps/replicasets":
      return {
        columns: [
          name,
          { name: "Desired", type: "integer", description: "Number of desired pods." },
          { name: "Current", type: "integer", description: "Number of actual pods." },
          { name: "Ready", type: "integer", description: "Number of ready pods." },
          ageCol,
        ],
        cells: (o) => [
          o.metadata?.name,
          sp(o).replicas ?? 0,
          st(o).replicas ?? 0,
          st(o).readyReplicas ?? 0,
          age(o.metadata?.creationTimestamp),
        ],
      };
    case "apps/statefulsets":
      return {
        columns: [
          name,
          { name: "Ready", type: "string", description: "Number of the pod with ready state" },
          ageCol,
        ],
        cells: (o) => [
          o.metadata?.name,
          `${st(o).readyReplicas ?? 0}/${sp(o).replicas ?? 0}`,
          age(o.metadata?.creationTimestamp),
        ],
      };
    case "coordination.k8s.io/leases":
      return {
        columns: [
          name,
          { name: "Holder", type: "string", description: "The holder of the lease" },
          ageCol,
        ],
        cells: (o) => [
          o.metadata?.name,
          sp(o).holderIdentity ?? "",
          age(o.metadata?.creationTimestamp),
        ],
      };
    case "apiextensions.k8s.io/customresourcedefinitions":
      return {
        columns: [name, { name: "Created At", type: "date", description: createdDescription }],
        cells: (o) => [o.metadata?.name, o.metadata?.creationTimestamp],
      };
  }
  return undefined;
}

/** Renders an object or a list as a Table for the request's resource and version. */
export function tableFor(scope: RequestScope, body: KubeObject, opts: TableOptions): KubeObject {
  const isList = Array.isArray(body.items);
  const items = isList ? (body.items as KubeObject[]) : [body];
  let printer: Printer | undefined;
  if (scope.info.custom) {
    const cols = scope.version.printerColumns ?? [];
    printer = {
      columns: [
        { name: "Name", type: "string", format: "name", description: nameDescription },
        ...cols.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format ?? "",
          description:
            c.description ||
            `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
          priority: c.priority ?? 0,
        })),
      ],
      cells: (o) => [o.metadata?.name, ...cols.map((c) => cellFor(c, o))],
    };
  } else {
    printer = builtinPrinter(scope.info.group, scope.info.resource) ?? {
      columns: [
        { name: "Name", type: "string", format: "name", description: nameDescription },
        { name: "Created At", type: "date", description: createdDescription },
      ],
      cells: (o) => [o.metadata?.name, o.metadata?.creationTimestamp],
    };
  }
  const listMeta = isList
    ? (body.metadata as JsonObject)
    : { resourceVersion: body.metadata?.resourceVersion };
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMeta,
    ...(opts.noHeaders
      ? {}
      : {
          columnDefinitions: printer.columns.map((c) => ({
            name: c.name,
            type: c.type,
            format: c.format ?? "",
            description: c.description,
            priority: c.priority ?? 0,
          })),
        }),
    rows: items.map((o) => ({
      cells: printer.cells(o),
      ...(opts.includeObject === "None"
        ? {}
        : {
            object:
              opts.includeObject === "Object"
                ? o
                : {
                    kind: "PartialObjectMetadata",
                    apiVersion: "meta.k8s.io/v1",
                    metadata: isObject(o.metadata) ? o.metadata : {},
                  },
          }),
    })),
  };
}
