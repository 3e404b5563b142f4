/**
 * Status condition helpers (apimachinery's meta.SetStatusCondition and friends). The rule that
 * matters: `lastTransitionTime` changes only when `status` changes, so re-asserting a condition
 * every reconcile is not a change and causes no write.
 */
import type { Condition, Time } from "../api/types.js";

/** A condition to set; `lastTransitionTime` defaults to now when the status transitions. */
export type ConditionInput = Omit<Condition, "lastTransitionTime"> & { lastTransitionTime?: Time };

/** metav1.Time's wire form: RFC 3339 in UTC with second precision. */
export function timeNow(now: Date = new Date()): Time {
  return now.toISOString().replace(/\.\d+Z$/, "Z");
}

/**
 * Adds or updates the condition of `cond.type` in `conditions` (in place). Returns true if
 * anything changed.
 */
export function setStatusCondition(
  conditions: Condition[],
  cond: ConditionInput,
  now: () => Date = () => new Date(),
): boolean {
  const existing = conditions.find((c) => c.type === cond.type);
  if (!existing) {
    conditions.push({
      type: cond.type,
      status: cond.status,
      ...(cond.observedGeneration !== undefined
        ? { observedGeneration: cond.observedGeneration }
        : {}),
      lastTransitionTime: cond.lastTransitionTime || timeNow(now()),
      reason: cond.reason,
      message: cond.message,
    });
    return true;
  }
  let changed = false;
  if (existing.status !== cond.status) {
    existing.status = cond.status;
    existing.lastTransitionTime = cond.lastTransitionTime || timeNow(now());
    changed = true;
  }
  if (existing.reason !== cond.reason) {
    existing.reason = cond.reason;
    changed = true;
  }
  if (existing.message !== cond.message) {
    existing.message = cond.message;
    changed = true;
  }
  if (existing.observedGeneration !== cond.observedGeneration) {
    if (cond.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = cond.observedGeneration;
    changed = true;
  }
  return changed;
}

/** Removes the condition of `type`; returns true if one was removed. */
export function removeStatusCondition(conditions: Condition[], type: string): boolean {
  const i = conditions.findIndex((c) => c.type === type);
  if (i < 0) return false;
  conditions.splice(i, 1);
  return true;
}

export function findStatusCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isStatusConditionTrue(
  conditions: readonly Condition[] | undefined,
  type: string,
): boolean {
  return findStatusCondition(conditions, type)?.status === "True";
}

export function isStatusConditionFalse(
  conditions: readonly Condition[] | undefined,
  type: string,
): boolean {
  return findStatusCondition(conditions, type)?.status === "False";
}

export function isStatusConditionPresentAndEqual(
  conditions: readonly Condition[] | undefined,
  type: string,
  status: Condition["status"],
): boolean {
  return findStatusCondition(conditions, type)?.status === status;
}
