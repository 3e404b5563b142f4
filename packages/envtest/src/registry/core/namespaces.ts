/**
 * Namespaces (`pkg/registry/core/namespace`): the `kubernetes` finalizer and the name label set
 * on every write, spec.finalizers changed only through the finalize subresource, deletion that
 * turns the namespace Terminating until its finalizers are gone, and the namespaces that can
 * never be deleted.
 */
import {
  deepClone,
  type JsonObject,
  type KubeObject,
  type SubresourceHandler,
} from "../../api/types.js";
import type { ObjectRest } from "../../rest/objects.js";
import { namedPrinter } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";

const immortal = new Set(["default", "kube-system", "kube-public"]);

export const namespaces: ResourceStrategy = {
  nameRule: "label",
  statusOnCreate: true,
  defaults(o) {
    const meta = o.metadata ?? {};
    meta.labels = { ...(meta.labels ?? {}), "kubernetes.io/metadata.name": meta.name ?? "" };
    o.metadata = meta;
    ensureObject(o, "spec");
    const status = ensureObject(o, "status");
    if (status.phase === undefined) status.phase = "Active";
  },
  // On create only, not as a default: the namespace controller removes it through finalize.
  prepareForCreate(o) {
    const spec = ensureObject(o, "spec");
    const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    if (!finalizers.includes("kubernetes")) spec.finalizers = [...finalizers, "kubernetes"];
  },
  prepareForUpdate(o, old, subresource) {
    if (subresource === "finalize") return;
    const spec = ensureObject(o, "spec");
    const oldFinalizers = objectAt(old.spec).finalizers;
    if (oldFinalizers === undefined) delete spec.finalizers;
    else spec.finalizers = deepClone(oldFinalizers);
  },
  pendingFinalizers: (o: KubeObject) =>
    (objectAt(o.spec).finalizers as unknown[] | undefined) ?? [],
  beginDeletion(o) {
    o.status = { ...((o.status as JsonObject | undefined) ?? {}), phase: "Terminating" };
  },
  deleteForbidden: (o) =>
    immortal.has(o.metadata?.name ?? "") ? "this namespace may not be deleted" : undefined,
  printer: () =>
    namedPrinter(
      [{ name: "Status", type: "string", description: "The status of the namespace" }],
      (o) => [objectAt(o.status).phase ?? ""],
    ),
};

/**
 * `PUT namespaces/<name>/finalize`: only spec.finalizers is taken from the body; a terminating
 * namespace whose finalizers are all gone is deleted (`pkg/registry/core/namespace` FinalizeREST).
 */
export function finalizeNamespace(rest: ObjectRest): SubresourceHandler {
  return {
    async update(scope, body) {
      const current = await rest.getAsync(scope);
      const next = deepClone(current);
      next.spec = {
        ...((next.spec as JsonObject) ?? {}),
        finalizers: (body.spec as JsonObject | undefined)?.finalizers ?? [],
      };
      return rest.updateAsync({ ...scope, subresource: "finalize" }, next);
    },
  };
}
