/**
 * Predicates filter the events a controller reacts to (controller-runtime's pkg/predicate): each
 * event kind can be accepted or dropped before it reaches the workqueue.
 */

import { type LabelSelectorInput, parseSelector } from "@opgen/apimachinery/selectors";
import type { KubeObject } from "../api/types.js";

export interface Predicate<T extends KubeObject = KubeObject> {
  create?(obj: T): boolean;
  update?(oldObj: T, newObj: T): boolean;
  delete?(obj: T): boolean;
}

/** Missing hooks accept. */
export function acceptsCreate<T extends KubeObject>(p: Predicate<T>, obj: T): boolean {
  return p.create ? p.create(obj) : true;
}
export function acceptsUpdate<T extends KubeObject>(p: Predicate<T>, o: T, n: T): boolean {
  return p.update ? p.update(o, n) : true;
}
export function acceptsDelete<T extends KubeObject>(p: Predicate<T>, obj: T): boolean {
  return p.delete ? p.delete(obj) : true;
}

/** Applies one object test to every event (for updates, to the new object). */
export function newPredicateFuncs<T extends KubeObject>(fn: (obj: T) => boolean): Predicate<T> {
  return { create: fn, update: (_o, n) => fn(n), delete: fn };
}

/** Updates pass only when metadata.generation changed (spec edits, not status or metadata). */
export function generationChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return { update: (o, n) => o.metadata?.generation !== n.metadata?.generation };
}

/** Updates pass only when the resourceVersion changed (drops periodic resyncs). */
export function resourceVersionChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return { update: (o, n) => o.metadata?.resourceVersion !== n.metadata?.resourceVersion };
}

/** Updates pass only when labels changed. */
export function labelChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return { update: (o, n) => !shallowEqual(o.metadata?.labels, n.metadata?.labels) };
}

/** Updates pass only when annotations changed. */
export function annotationChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return { update: (o, n) => !shallowEqual(o.metadata?.annotations, n.metadata?.annotations) };
}

/** Only objects whose labels match the selector. */
export function labelSelector<T extends KubeObject = KubeObject>(
  sel: LabelSelectorInput,
): Predicate<T> {
  const s = parseSelector(sel);
  return newPredicateFuncs((obj) => s.matches(obj.metadata?.labels));
}

/** All predicates must accept. */
export function and<T extends KubeObject>(...ps: Predicate<T>[]): Predicate<T> {
  return {
    create: (obj) => ps.every((p) => acceptsCreate(p, obj)),
    update: (o, n) => ps.every((p) => acceptsUpdate(p, o, n)),
    delete: (obj) => ps.every((p) => acceptsDelete(p, obj)),
  };
}

/** Any predicate accepting is enough. */
export function or<T extends KubeObject>(...ps: Predicate<T>[]): Predicate<T> {
  return {
    create: (obj) => ps.some((p) => acceptsCreate(p, obj)),
    update: (o, n) => ps.some((p) => acceptsUpdate(p, o, n)),
    delete: (obj) => ps.some((p) => acceptsDelete(p, obj)),
  };
}

/** Inverts a predicate. */
export function not<T extends KubeObject>(p: Predicate<T>): Predicate<T> {
  return {
    create: (obj) => !acceptsCreate(p, obj),
    update: (o, n) => !acceptsUpdate(p, o, n),
    delete: (obj) => !acceptsDelete(p, obj),
  };
}

function shallowEqual(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  return ak.length === bk.length && ak.every((k) => a?.[k] === b?.[k]);
}
