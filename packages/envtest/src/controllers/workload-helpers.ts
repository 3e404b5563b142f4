/**
 * What the simulated workload controllers share: pod-template hashes, controller owner
 * references, ready pods, and the fields they read off their objects.
 */
import { createHash } from "node:crypto";
import type { JsonObject, KubeObject, OwnerReference } from "../api/types.js";
import { isPodReady } from "../registry/core/pod-conditions.js";
import type { Store } from "../store/store.js";

export { isPodReady };

const hashAlphabet = "bcdfghjklmnpqrstvwxz2456789";

/** JSON with object keys sorted: equal templates hash equal whatever order their keys came in. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** A short stable hash of a pod template, in the alphabet of pod-template-hash labels. */
export function templateHash(template: unknown): string {
  const digest = createHash("sha256")
    .update(canonicalJson(template ?? {}))
    .digest();
  let out = "";
  for (let i = 0; i < 10; i++) out += hashAlphabet[digest[i]! % hashAlphabet.length];
  return out;
}

export function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? "apps/v1",
    kind: owner.kind ?? "",
    name: owner.metadata?.name ?? "",
    uid: owner.metadata?.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function ownedBy(o: KubeObject, owner: KubeObject): boolean {
  return (o.metadata?.ownerReferences ?? []).some(
    (r) => r.controller && r.uid === owner.metadata?.uid,
  );
}

export function spec(o: KubeObject): JsonObject {
  return (o.spec ?? {}) as JsonObject;
}

export function replicasOf(o: KubeObject): number {
  const r = spec(o).replicas;
  return typeof r === "number" ? r : 1;
}

/** A ReplicaSet's `deployment.kubernetes.io/revision`. */
export function revisionOf(rs: KubeObject): number {
  return Number(rs.metadata?.annotations?.["deployment.kubernetes.io/revision"] ?? 0) || 0;
}

/** The Deployment's annotations a new ReplicaSet carries (kubernetes.io/change-cause, ...). */
export function copiedAnnotations(d: KubeObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (k === "kubectl.kubernetes.io/last-applied-configuration") continue;
    if (k.startsWith("deployment.kubernetes.io/")) continue;
    out[k] = v;
  }
  return out;
}

export function templateLabels(o: KubeObject): Record<string, string> {
  const t = (spec(o).template ?? {}) as { metadata?: { labels?: Record<string, string> } };
  return t.metadata?.labels ?? {};
}

/** `o` as stored now: a sync that awaited admission goes on from it, not from a stale copy. */
export function storedNow(store: Store, bucket: string, o: KubeObject): KubeObject | undefined {
  const now = store.get(bucket, o.metadata?.namespace, o.metadata?.name ?? "");
  return now?.metadata?.uid === o.metadata?.uid ? now : undefined;
}
