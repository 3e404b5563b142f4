/**
 * Events, core/v1 and events.k8s.io/v1 (`pkg/registry/core/event`, `pkg/apis/core/validation/events.go`):
 * MicroTime fields normalized to microseconds, the legacy and new-style validations, and the
 * columns `kubectl get events` prints.
 */

import { isQualifiedName } from "@opgen/apimachinery/names";
import type { FieldError } from "@opgen/apimachinery/status";
import { normalizeMicroTime } from "../../api/meta.js";
import { isObject, type KubeObject, type SharedStorage } from "../../api/types.js";
import { at, type FieldLabels, labels } from "../field-labels.js";
import { eventPrinter, eventsV1Printer } from "../printing/cluster-state.js";
import { objectAt, type ResourceStrategy } from "../strategy.js";

/** Normalizes the given MicroTime fields of `container` (absent or null ones are left). */
export function normalizeMicroTimes(container: unknown, keys: readonly string[]): void {
  if (!isObject(container)) return;
  for (const k of keys) {
    if (container[k] !== undefined && container[k] !== null) {
      container[k] = normalizeMicroTime(container[k]);
    }
  }
}

function defaultEventTimes(o: KubeObject): void {
  normalizeMicroTimes(o, ["eventTime"]);
  normalizeMicroTimes(o.series, ["lastObservedTime"]);
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** legacyValidateEvent (`pkg/apis/core/validation/events.go`) as applied to core/v1 writes. */
function validateCoreEvent(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const involvedNs = String(objectAt(o.involvedObject).namespace ?? "");
  const ns = o.metadata?.namespace ?? "";
  const mismatch = (): FieldError => ({
    type: "FieldValueInvalid",
    field: "involvedObject.namespace",
    value: involvedNs,
    detail: "does not match event.namespace",
  });
  if (!o.eventTime) {
    // Old-style events: the namespaces must agree (cluster-scoped objects: "" or "default").
    if (involvedNs === "" ? ns !== "" && ns !== "default" : ns !== involvedNs)
      errs.push(mismatch());
    return errs;
  }
  if (involvedNs === "" && ns !== "default" && ns !== "kube-system") errs.push(mismatch());
  const controller = str(o.reportingComponent);
  if (!controller)
    errs.push({ type: "FieldValueRequired", field: "reportingComponent", detail: "" });
  else {
    for (const m of isQualifiedName(controller)) {
      errs.push({
        type: "FieldValueInvalid",
        field: "reportingComponent",
        value: controller,
        detail: m,
      });
    }
  }
  const limited: [string, unknown, number][] = [
    ["reportingInstance", o.reportingInstance, 128],
    ["action", o.action, 128],
    ["reason", o.reason, 128],
  ];
  for (const [field, value, limit] of limited) {
    const v = str(value);
    if (!v) errs.push({ type: "FieldValueRequired", field, detail: "" });
    else if (v.length > limit) {
      errs.push({
        type: "FieldValueInvalid",
        field,
        value: "",
        detail: `can have at most ${limit} characters`,
      });
    }
  }
  if (str(o.message).length > 1024) {
    errs.push({
      type: "FieldValueInvalid",
      field: "message",
      value: "",
      detail: "can have at most 1024 characters",
    });
  }
  return errs;
}

/** events.k8s.io/v1 requires the new-style fields. */
function validateEventsV1(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!o.eventTime) errs.push({ type: "FieldValueRequired", field: "eventTime", detail: "" });
  if (o.type !== "Normal" && o.type !== "Warning") {
    errs.push({
      type: "FieldValueInvalid",
      field: "type",
      value: o.type ?? "",
      detail: `has invalid value: ${String(o.type ?? "")}`,
    });
  }
  for (const f of ["reportingController", "reportingInstance", "action", "reason"]) {
    if (!o[f]) errs.push({ type: "FieldValueRequired", field: f, detail: "" });
  }
  return errs;
}

export const coreEvents: ResourceStrategy = {
  nameRule: "subdomain",
  defaults: defaultEventTimes,
  validate: validateCoreEvent,
  printer: () => eventPrinter,
};

export const eventsV1: ResourceStrategy = {
  nameRule: "subdomain",
  defaults: defaultEventTimes,
  validate: validateEventsV1,
  printer: () => eventsV1Printer,
};

/** The field selectors of core/v1 events (`pkg/registry/core/event` ToSelectableFields). */
export const eventFieldLabels: FieldLabels = {
  ...labels(
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "type",
  ),
  // `source` selects on source.component in the real field set.
  source: at("source.component"),
};

/** Field renames between events.k8s.io/v1 Event (left) and core/v1 Event (right). */
const eventRenames: [string, string][] = [
  ["regarding", "involvedObject"],
  ["note", "message"],
  ["deprecatedSource", "source"],
  ["deprecatedFirstTimestamp", "firstTimestamp"],
  ["deprecatedLastTimestamp", "lastTimestamp"],
  ["deprecatedCount", "count"],
  ["reportingController", "reportingComponent"],
];

function rename(o: KubeObject, pairs: [string, string][], apiVersion: string): KubeObject {
  const out: KubeObject = { ...o, apiVersion, kind: "Event" };
  for (const [from, to] of pairs) {
    if (from in out) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

/** events.k8s.io/v1 events are stored once, as core/v1 events (one object, two APIs). */
export const eventsSharedStorage: SharedStorage = {
  bucket: "/events",
  apiVersion: "v1",
  toStorage: (o) => rename(o, eventRenames, "v1"),
  fromStorage: (o) =>
    rename(
      o,
      eventRenames.map(([a, b]) => [b, a]),
      "events.k8s.io/v1",
    ),
};
