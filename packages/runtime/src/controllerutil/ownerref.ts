/**
 * Owner references (controllerutil.SetControllerReference and friends). A controller reference
 * makes garbage collection delete the object with its owner and lets `owns()` route the object's
 * events to the owner. Owners must be in the object's namespace or cluster-scoped.
 */
import type { V1OwnerReference } from "@kubernetes/client-node";
import { parseApiVersion } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";

/** The object already has a controller reference to a different owner. */
export class AlreadyOwnedError extends Error {
  override readonly name = "AlreadyOwnedError";
  constructor(
    readonly object: string,
    readonly owner: V1OwnerReference,
  ) {
    super(`Object ${object} is already owned by another ${owner.kind} controller ${owner.name}`);
  }
}

export interface OwnerReferenceOptions {
  /** Set blockOwnerDeletion (default true for controller references, as controller-runtime). */
  blockOwnerDeletion?: boolean;
}

function describe(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name}` : (obj.metadata?.name ?? "");
}

function referenceTo(owner: KubeObject): V1OwnerReference {
  const { apiVersion, kind } = owner;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!apiVersion || !kind) throw new Error("owner has no apiVersion/kind");
  if (!name || !uid) throw new Error(`owner ${kind} has no name/uid: read it from the API first`);
  return { apiVersion, kind, name, uid };
}

function validateOwner(owner: KubeObject, obj: KubeObject): void {
  const ownerNs = owner.metadata?.namespace;
  if (!ownerNs) return; // cluster-scoped owners may own anything
  const objNs = obj.metadata?.namespace;
  if (!objNs) {
    throw new Error(
      `cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNs}`,
    );
  }
  if (objNs !== ownerNs) {
    throw new Error(
      `cross-namespace owner references are disallowed, owner's namespace ${ownerNs}, obj's namespace ${objNs}`,
    );
  }
}

function sameOwner(a: V1OwnerReference, b: V1OwnerReference): boolean {
  return (
    parseApiVersion(a.apiVersion).group === parseApiVersion(b.apiVersion).group &&
    a.kind === b.kind &&
    a.name === b.name
  );
}

function upsert(obj: KubeObject, ref: V1OwnerReference): void {
  obj.metadata ??= {};
  obj.metadata.ownerReferences ??= [];
  const refs = obj.metadata.ownerReferences;
  const i = refs.findIndex((r) => sameOwner(r, ref));
  if (i >= 0) refs[i] = ref;
  else refs.push(ref);
}

/**
 * Makes `owner` the controller of `obj` (controller=true, blockOwnerDeletion=true). Throws
 * AlreadyOwnedError if another controller owns it, and refuses cross-namespace owners.
 */
export function setControllerReference(
  owner: KubeObject,
  obj: KubeObject,
  opts: OwnerReferenceOptions = {},
): void {
  validateOwner(owner, obj);
  const ref: V1OwnerReference = {
    ...referenceTo(owner),
    blockOwnerDeletion: opts.blockOwnerDeletion ?? true,
    controller: true,
  };
  const existing = getControllerOf(obj);
  if (existing && !sameOwner(existing, ref)) throw new AlreadyOwnedError(describe(obj), existing);
  upsert(obj, ref);
}

/** Adds (or refreshes) a non-controller owner reference to `owner`. */
export function setOwnerReference(
  owner: KubeObject,
  obj: KubeObject,
  opts: OwnerReferenceOptions = {},
): void {
  validateOwner(owner, obj);
  const ref: V1OwnerReference = referenceTo(owner);
  if (opts.blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = opts.blockOwnerDeletion;
  upsert(obj, ref);
}

/** The controller reference of `obj`, if any. */
export function getControllerOf(obj: KubeObject): V1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller);
}

/** Whether `obj` has an owner reference to `owner` (by group, kind and name). */
export function hasOwnerReference(owner: KubeObject, obj: KubeObject): boolean {
  const ref = referenceTo(owner);
  return obj.metadata?.ownerReferences?.some((r) => sameOwner(r, ref)) ?? false;
}

/** Whether `owner` is the controller of `obj`. */
export function hasControllerReference(owner: KubeObject, obj: KubeObject): boolean {
  const c = getControllerOf(obj);
  return c !== undefined && sameOwner(c, referenceTo(owner));
}

/** Removes the owner reference to `owner`; returns true if one was removed. */
export function removeOwnerReference(owner: KubeObject, obj: KubeObject): boolean {
  const ref = referenceTo(owner);
  const refs = obj.metadata?.ownerReferences;
  if (!refs?.some((r) => sameOwner(r, ref))) return false;
  obj.metadata!.ownerReferences = refs.filter((r) => !sameOwner(r, ref));
  return true;
}
