import type { Printer, PrinterColumnDefinition } from "../api/resource.js";
import { type KubeObject, objectAt } from "../api/types.js";
import { doc } from "./printing/describe.js";
import { containerCells, labelSelector } from "./printing/format.js";

export type { Printer, PrinterColumnDefinition } from "../api/resource.js";

export const nameDescription =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
export const createdDescription =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

export const nameColumn: PrinterColumnDefinition = {
  name: "Name",
  type: "string",
  format: "name",
  description: nameDescription,
};
export const ageColumn: PrinterColumnDefinition = {
  name: "Age",
  type: "string",
  description: createdDescription,
};

/** apimachinery `duration.HumanDuration` (whole seconds truncated toward zero, as Go's int()). */
export function humanDuration(ms: number): string {
  const s = Math.trunc(ms / 1000);
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

/** The age of a timestamp as kubectl prints it. */
export function age(ts: unknown): string {
  if (typeof ts !== "string") return "<unknown>";
  const t = Date.parse(ts);
  return Number.isNaN(t) ? "<invalid>" : humanDuration(Date.now() - t);
}

/** The name, the given middle columns, then the age: the shape most built-in printers have. */
export function namedPrinter(
  middle: PrinterColumnDefinition[],
  cells: (o: KubeObject) => unknown[],
): Printer {
  return {
    columns: [nameColumn, ...middle, ageColumn],
    cells: (o) => [o.metadata?.name, ...cells(o), age(o.metadata?.creationTimestamp)],
  };
}

/**
 * The table of a workload's `scale` subresource (an autoscaling/v1 Scale), as kube's printers
 * define it: its Name column, unlike the others, has no `name` format.
 */
export const scalePrinter: Printer = {
  columns: [
    { name: "Name", type: "string", description: nameDescription },
    {
      name: "Desired",
      type: "integer",
      description: doc("api.autoscaling.v1.ScaleSpec", "replicas"),
    },
    {
      name: "Available",
      type: "integer",
      description: doc("api.autoscaling.v1.ScaleStatus", "replicas"),
    },
    ageColumn,
  ],
  cells: (o) => {
    const spec = (o.spec ?? {}) as { replicas?: number };
    const status = (o.status ?? {}) as { replicas?: number };
    return [
      o.metadata?.name,
      spec.replicas ?? 0,
      status.replicas ?? 0,
      age(o.metadata?.creationTimestamp),
    ];
  },
};

/** kube's default table convertor: Name and Created At. */
export const defaultPrinter: Printer = {
  columns: [nameColumn, { name: "Created At", type: "date", description: createdDescription }],
  cells: (o) => [o.metadata?.name, o.metadata?.creationTimestamp],
};

/** A printer with `-o wide` columns (priority 1) appended after its own. */
export function withWide(
  base: Printer,
  wide: PrinterColumnDefinition[],
  cells: (o: KubeObject) => unknown[],
): Printer {
  return {
    columns: [...base.columns, ...wide.map((c) => ({ ...c, priority: 1 }))],
    cells: (o) => [...base.cells(o), ...cells(o)],
  };
}

const containersColumn: PrinterColumnDefinition = {
  name: "Containers",
  type: "string",
  description: "Names of each container in the template.",
};
const imagesColumn: PrinterColumnDefinition = {
  name: "Images",
  type: "string",
  description: "Images referenced by each container in the template.",
};
/**
 * The wide Containers, Images (and Selector) columns of the workload printers, read from the
 * pod template at `spec.template` (`spec.jobTemplate.spec.template` for CronJobs).
 */
export function templateWide(
  base: Printer,
  opts: {
    /** The Selector column's description (the kind's `spec.selector` doc), or no such column. */
    selector: PrinterColumnDefinition["description"] | false;
    template?: (o: KubeObject) => unknown;
    /** The Selector cell, when the selector is not a LabelSelector at `spec.selector`. */
    selectorCell?: (o: KubeObject) => string;
  },
): Printer {
  const templateOf = opts.template ?? ((o: KubeObject) => objectAt(o.spec).template);
  const selector: PrinterColumnDefinition[] =
    opts.selector === false
      ? []
      : [{ name: "Selector", type: "string", description: opts.selector }];
  const columns = [containersColumn, imagesColumn, ...selector];
  return withWide(base, columns, (o) => {
    const out: unknown[] = containerCells(templateOf(o));
    if (opts.selector !== false)
      out.push(opts.selectorCell?.(o) ?? labelSelector(objectAt(o.spec).selector));
    return out;
  });
}
