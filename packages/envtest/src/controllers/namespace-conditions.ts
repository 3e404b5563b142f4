/**
 * The conditions the namespace controller writes on a terminating namespace while it deletes
 * the content (pkg/controller/namespace/deletion/status_condition_utils.go, kube 1.32): each of
 * the five types once, the failing variant where something is left (the resources remaining, the
 * finalizers holding them) and the "ok" variant otherwise; a condition's transition time changes
 * with its status only.
 */
import { nowTime } from "../api/meta.js";
import type { JsonObject } from "../api/types.js";

interface Condition {
  type: string;
  status: "True" | "False";
  reason: string;
  message: string;
}

const OK: Record<string, [reason: string, message: string]> = {
  NamespaceDeletionDiscoveryFailure: [
    "ResourcesDiscovered",
    "All resources successfully discovered",
  ],
  NamespaceDeletionGroupVersionParsingFailure: [
    "ParsedGroupVersions",
    "All legacy kube types successfully parsed",
  ],
  NamespaceDeletionContentFailure: [
    "ContentDeleted",
    "All content successfully deleted, may be waiting on finalization",
  ],
  NamespaceContentRemaining: ["ContentRemoved", "All content successfully removed"],
  NamespaceFinalizersRemaining: [
    "ContentHasNoFinalizers",
    "All content-preserving finalizers finished",
  ],
};

function counted(counts: ReadonlyMap<string, number>, text: (k: string, n: number) => string) {
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([k, n]) => text(k, n))
    .sort()
    .join(", ");
}

/** What is left in the namespace: objects by `<resource>.<group>`, and by finalizer. */
export interface Remaining {
  resources: ReadonlyMap<string, number>;
  finalizers: ReadonlyMap<string, number>;
}

function wanted(left: Remaining): Condition[] {
  const out: Condition[] = Object.entries(OK).map(([type, [reason, message]]) => ({
    type,
    status: "False",
    reason,
    message,
  }));
  const set = (c: Condition) => {
    out[out.findIndex((o) => o.type === c.type)] = c;
  };
  if (left.resources.size > 0)
    set({
      type: "NamespaceContentRemaining",
      status: "True",
      reason: "SomeResourcesRemain",
      message: `Some resources are remaining: ${counted(left.resources, (r, n) => `${r} has ${n} resource instances`)}`,
    });
  if (left.finalizers.size > 0)
    set({
      type: "NamespaceFinalizersRemaining",
      status: "True",
      reason: "SomeFinalizersRemain",
      message: `Some content in the namespace has finalizers remaining: ${counted(left.finalizers, (f, n) => `${f} in ${n} resource instances`)}`,
    });
  return out;
}

/** The namespace's conditions updated for what is left, or undefined when nothing changes. */
export function deletionConditions(
  current: readonly JsonObject[],
  left: Remaining,
): JsonObject[] | undefined {
  const conditions = current.map((c) => ({ ...c }));
  let changed = false;
  for (const c of wanted(left)) {
    const old = conditions.find((o) => o.type === c.type);
    if (!old) {
      conditions.push({ ...c, lastTransitionTime: nowTime() });
      changed = true;
    } else if (old.status !== c.status || old.reason !== c.reason || old.message !== c.message) {
      if (old.status !== c.status) old.lastTransitionTime = nowTime();
      Object.assign(old, c);
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
