/**
 * ValidatePersistentVolumeClaimUpdate with kube 1.32's default gates (RecoverVolumeExpansionFailure
 * on, VolumeAttributesClass off): the spec is fixed at creation but for the binder's one-time
 * volumeName, a storage class set where none was (or moved from the beta annotation), and a
 * bound claim's storage request, which may shrink only while it stays above status.capacity.
 * kube follows the spec Forbidden with a go-cmp diff of its internal structs; that diff is
 * deliberately unstable (go-cmp randomises its whitespace) and is not reproduced here.
 */

import { parseQuantity, type Quantity } from "@opgen/apimachinery/quantity";
import type { FieldError } from "@opgen/apimachinery/status";
import { deepClone, deepEqual, type JsonObject, type KubeObject } from "../../api/types.js";
import { objectAt } from "../strategy.js";

const BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

export const PVC_SPEC_IMMUTABLE =
  "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

const ZERO = parseQuantity("0") as Quantity;

function quantityOf(v: unknown): Quantity {
  return (typeof v === "string" ? parseQuantity(v.trim()) : undefined) ?? ZERO;
}

/** A resource list compared as apiequality.Semantic does: quantities by value, empty as absent. */
function semanticList(list: unknown): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(objectAt(list))) {
    const q = typeof v === "string" ? parseQuantity(v.trim()) : undefined;
    // Sum with zero normalises "1Gi" and "1073741824" to the same units and scale.
    const n = q?.add(ZERO);
    out[k] = n ? `${n.units}e-${n.scale}` : (v as JsonObject);
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The spec as Go's semantic equality sees it: nil and empty lists and maps alike, "" the zero
 * of the plain strings (volumeName), the pointer fields (storageClassName, selector) kept as sent.
 */
function semanticSpec(spec: JsonObject): JsonObject {
  const s = deepClone(spec);
  for (const [k, v] of Object.entries(s)) {
    if (v === null || (Array.isArray(v) && v.length === 0)) delete s[k];
  }
  if (s.volumeName === "") delete s.volumeName;
  const resources = objectAt(s.resources);
  const requests = semanticList(resources.requests);
  const limits = semanticList(resources.limits);
  const r: JsonObject = {};
  if (requests) r.requests = requests;
  if (limits) r.limits = limits;
  if (Object.keys(r).length) s.resources = r;
  else delete s.resources;
  return s;
}

/** PrepareForUpdate's DropDisabledFields: VolumeAttributesClass is off, so a new name is dropped. */
export function dropDisabledClaimFields(spec: JsonObject, oldSpec: JsonObject | undefined): void {
  if (oldSpec?.volumeAttributesClassName === undefined) delete spec.volumeAttributesClassName;
}

export function persistentVolumeClaimUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = objectAt(o.spec);
  const oldSpec = objectAt(old.spec);
  const next = deepClone(spec);
  const prev = deepClone(oldSpec);
  // The binder fills volumeName once.
  if (oldSpec.volumeName === undefined || oldSpec.volumeName === "") {
    if (spec.volumeName === undefined) delete prev.volumeName;
    else prev.volumeName = spec.volumeName;
  }
  const oldAnnotation = old.metadata?.annotations?.[BETA_STORAGE_CLASS];
  const annotation = o.metadata?.annotations?.[BETA_STORAGE_CLASS];
  const fromAnnotation =
    oldAnnotation !== undefined &&
    oldSpec.storageClassName === undefined &&
    spec.storageClassName !== undefined &&
    spec.storageClassName === oldAnnotation &&
    (annotation === undefined || annotation === oldAnnotation);
  if (fromAnnotation) delete next.storageClassName;
  else {
    if ((annotation ?? "") !== (oldAnnotation ?? ""))
      errs.push({
        type: "FieldValueInvalid",
        field: `metadata.annotations.${BETA_STORAGE_CLASS}`,
        value: annotation ?? "",
        detail: "field is immutable",
      });
    // A class may be set where none was, agreeing with the annotation if there is one.
    if (
      spec.storageClassName !== undefined &&
      oldSpec.storageClassName === undefined &&
      (oldAnnotation === undefined || spec.storageClassName === oldAnnotation)
    )
      delete next.storageClassName;
  }
  // Only a bound claim may change its storage request (o.status is the stored status here).
  const nextResources = objectAt(next.resources);
  if (objectAt(o.status).phase === "Bound" && nextResources.requests !== undefined) {
    const requests = objectAt(nextResources.requests);
    const before = objectAt(objectAt(oldSpec.resources).requests).storage;
    if (before === undefined) delete requests.storage;
    else requests.storage = before;
    nextResources.requests = requests;
    next.resources = nextResources;
  }
  if (prev.volumeAttributesClassName === undefined) delete next.volumeAttributesClassName;
  else next.volumeAttributesClassName = prev.volumeAttributesClassName;
  if (!deepEqual(semanticSpec(next), semanticSpec(prev)))
    errs.push({ type: "FieldValueForbidden", field: "spec", detail: PVC_SPEC_IMMUTABLE });

  const size = quantityOf(objectAt(objectAt(spec.resources).requests).storage);
  const oldSize = quantityOf(objectAt(objectAt(oldSpec.resources).requests).storage);
  const capacity = quantityOf(objectAt(objectAt(old.status).capacity).storage);
  // RecoverVolumeExpansionFailure: a request may come down, but not to what was provisioned.
  if (size.cmp(oldSize) < 0 && size.cmp(capacity) <= 0)
    errs.push({
      type: "FieldValueForbidden",
      field: "spec.resources.requests.storage",
      detail: "field can not be less than status.capacity",
    });
  if (spec.volumeMode !== oldSpec.volumeMode)
    errs.push({
      type: "FieldValueInvalid",
      field: "volumeMode",
      value: spec.volumeMode ?? null,
      detail: "field is immutable",
    });
  return errs;
}
