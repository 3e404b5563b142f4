/**
 * Ephemeral containers (GA since 1.25) as kube-apiserver 1.32 keeps them: added only through the
 * `pods/<name>/ephemeralcontainers` subresource, whose update keeps nothing of the request but
 * `spec.ephemeralContainers` (podEphemeralContainersStrategy); refused on create
 * (ValidatePodCreate); validated as containers without the fields a workload relies on
 * (validateEphemeralContainers); never changed or removed once added, and never on a static pod
 * (ValidatePodEphemeralContainersUpdate). Their status is the kubelet's to report.
 */
import { isDNS1123Label } from "@opgen/apimachinery/names";
import type { FieldError } from "@opgen/apimachinery/status";
import {
  deepClone,
  deepEqual,
  isObject,
  type JsonObject,
  type KubeObject,
} from "../../api/types.js";
import { objectAt } from "../strategy.js";

export const EPHEMERAL_SUBRESOURCE = "ephemeralcontainers";

const MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";

const PATH = "spec.ephemeralContainers";

/**
 * The Container fields an ephemeral container may not set, in the Go struct's order (kube lists
 * the allowed ones and refuses every other field that is not its zero value).
 */
const NOT_ALLOWED = [
  "ports",
  "resources",
  "resizePolicy",
  "restartPolicy",
  "livenessProbe",
  "readinessProbe",
  "startupProbe",
  "lifecycle",
];

const PULL_POLICIES = ["Always", "IfNotPresent", "Never"];

function list(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function names(v: unknown): string[] {
  return list(v)
    .map((c) => c.name)
    .filter((n): n is string => typeof n === "string" && n !== "");
}

/** Whether a field holds something other than its Go zero value (`resources` is a struct). */
function isSet(c: JsonObject, key: string): boolean {
  const v = c[key];
  if (v === undefined || v === null) return false;
  if (key === "resources") return isObject(v) && Object.keys(v).length > 0;
  return true;
}

/** validateEphemeralContainers: the pod's `spec.ephemeralContainers` against its other containers. */
export function validateEphemeralContainers(spec: unknown): FieldError[] {
  const s = objectAt(spec);
  const ephemeral = list(s.ephemeralContainers);
  if (ephemeral.length === 0) return [];
  const errs: FieldError[] = [];
  const others = new Set([...names(s.containers), ...names(s.initContainers)]);
  const all = new Set(others);
  ephemeral.forEach((c, i) => {
    const p = `${PATH}[${i}]`;
    const name = typeof c.name === "string" ? c.name : "";
    if (!name) errs.push({ type: "FieldValueRequired", field: `${p}.name`, detail: "" });
    else
      for (const m of isDNS1123Label(name))
        errs.push({ type: "FieldValueInvalid", field: `${p}.name`, value: name, detail: m });
    if (!c.image) errs.push({ type: "FieldValueRequired", field: `${p}.image`, detail: "" });
    const pull = c.imagePullPolicy;
    if (pull !== undefined && !PULL_POLICIES.includes(String(pull)))
      errs.push({
        type: "FieldValueNotSupported",
        field: `${p}.imagePullPolicy`,
        value: pull,
        detail: `supported values: ${PULL_POLICIES.map((x) => JSON.stringify(x)).join(", ")}`,
      });
    // Names are unique across init, regular and ephemeral containers.
    if (all.has(name)) errs.push({ type: "FieldValueDuplicate", field: `${p}.name`, value: name });
    else all.add(name);
    const target = c.targetContainerName;
    if (typeof target === "string" && target !== "" && !others.has(target))
      errs.push({ type: "FieldValueNotFound", field: `${p}.targetContainerName`, value: target });
    for (const key of NOT_ALLOWED)
      if (isSet(c, key))
        errs.push({
          type: "FieldValueForbidden",
          field: `${p}.${key}`,
          detail: "cannot be set for an Ephemeral Container",
        });
    // Subpaths are bind mounts kept until the pod exits: refused outright.
    list(c.volumeMounts).forEach((m, j) => {
      for (const key of ["subPath", "subPathExpr"])
        if (typeof m[key] === "string" && m[key] !== "")
          errs.push({
            type: "FieldValueForbidden",
            field: `${p}.volumeMounts[${j}].${key}`,
            detail: "cannot be set for an Ephemeral Container",
          });
    });
  });
  return errs;
}

/** ValidatePodCreate: ephemeral containers are validated, and come only through the subresource. */
export function validateEphemeralContainersOnCreate(o: KubeObject): FieldError[] {
  const errs = validateEphemeralContainers(o.spec);
  if (list(objectAt(o.spec).ephemeralContainers).length > 0)
    errs.push({ type: "FieldValueForbidden", field: PATH, detail: "cannot be set on create" });
  return errs;
}

/**
 * dropNonEphemeralContainerUpdates: the stored pod with the request's ephemeral containers; the
 * metadata a status write may not change (labels, annotations, finalizers, owners) stays too.
 */
export function keepOnlyEphemeralContainers(o: KubeObject, old: KubeObject): void {
  const requested = objectAt(o.spec).ephemeralContainers;
  const spec = deepClone(objectAt(old.spec));
  if (requested === undefined || requested === null) delete spec.ephemeralContainers;
  else spec.ephemeralContainers = requested;
  o.spec = spec;
  if (old.status === undefined) delete o.status;
  else o.status = deepClone(old.status);
  if (o.metadata === undefined) o.metadata = {};
  const m = o.metadata;
  const om = old.metadata ?? {};
  for (const key of ["labels", "annotations", "finalizers", "ownerReferences"] as const) {
    if (om[key] === undefined) delete m[key];
    else (m as JsonObject)[key] = deepClone(om[key] as JsonObject);
  }
}

/**
 * Go's semantic equality on a container: nil and empty lists, false and "" equal an absent field
 * (the JSON forms of the same Go value).
 */
function comparable(c: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(c)) {
    if (v === null || v === false || v === "") continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

/**
 * ValidatePodEphemeralContainersUpdate beyond the pod spec's validation: a static (mirror) pod
 * takes none (that error alone is the answer), and existing ephemeral containers may be neither
 * removed nor changed. kube follows "may not be changed" with a Go cmp.Diff of the internal
 * structs, which envtest does not reproduce.
 */
export function validateEphemeralContainersUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  if (old.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined)
    return [
      {
        type: "FieldValueForbidden",
        // field.NewPath("") prints as an empty index.
        field: "[]",
        detail: "static pods do not support ephemeral containers",
      },
    ];
  const errs = validateEphemeralContainers(o.spec);
  const now = new Map(list(objectAt(o.spec).ephemeralContainers).map((c) => [c.name, c]));
  for (const before of list(objectAt(old.spec).ephemeralContainers)) {
    const name = JSON.stringify(String(before.name ?? ""));
    const after = now.get(before.name);
    if (!after)
      errs.push({
        type: "FieldValueForbidden",
        field: PATH,
        detail: `existing ephemeral containers ${name} may not be removed\n`,
      });
    else if (!deepEqual(comparable(before), comparable(after)))
      errs.push({
        type: "FieldValueForbidden",
        field: PATH,
        detail: `existing ephemeral containers ${name} may not be changed\n`,
      });
  }
  return errs;
}
