import { describe, expect, it } from "vitest";
import {
  type Condition,
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  removeStatusCondition,
  setStatusCondition,
  timeNow,
} from "../../src/index.js";

const t0 = new Date("2026-01-01T00:00:00.123Z");
const t1 = new Date("2026-01-01T01:00:00.000Z");

describe("setStatusCondition", () => {
  it("appends a new condition with lastTransitionTime now (RFC 3339, seconds)", () => {
    const conds: Condition[] = [];
    const changed = setStatusCondition(
      conds,
      { type: "Available", status: "True", reason: "Ok", message: "m", observedGeneration: 1 },
      () => t0,
    );
    expect(changed).toBe(true);
    expect(conds).toEqual([
      {
        type: "Available",
        status: "True",
        reason: "Ok",
        message: "m",
        observedGeneration: 1,
        lastTransitionTime: "2026-01-01T00:00:00Z",
      },
    ]);
  });

  it("keeps lastTransitionTime when status is unchanged and reports no change for identical input", () => {
    const conds: Condition[] = [];
    const c = { type: "Available", status: "True" as const, reason: "Ok", message: "m" };
    setStatusCondition(conds, c, () => t0);
    expect(setStatusCondition(conds, c, () => t1)).toBe(false);
    expect(conds[0]?.lastTransitionTime).toBe("2026-01-01T00:00:00Z");
    // reason/message/generation changes are changes, but not transitions
    expect(
      setStatusCondition(conds, { ...c, reason: "Other", observedGeneration: 2 }, () => t1),
    ).toBe(true);
    expect(conds[0]?.lastTransitionTime).toBe("2026-01-01T00:00:00Z");
    expect(conds[0]?.reason).toBe("Other");
    expect(conds[0]?.observedGeneration).toBe(2);
  });

  it("moves lastTransitionTime when status changes, honouring a given time", () => {
    const conds: Condition[] = [];
    setStatusCondition(
      conds,
      { type: "Ready", status: "False", reason: "A", message: "" },
      () => t0,
    );
    expect(
      setStatusCondition(
        conds,
        { type: "Ready", status: "True", reason: "A", message: "" },
        () => t1,
      ),
    ).toBe(true);
    expect(conds[0]?.lastTransitionTime).toBe("2026-01-01T01:00:00Z");
    setStatusCondition(conds, {
      type: "Ready",
      status: "Unknown",
      reason: "A",
      message: "",
      lastTransitionTime: "2020-01-01T00:00:00Z",
    });
    expect(conds[0]?.lastTransitionTime).toBe("2020-01-01T00:00:00Z");
  });

  it("find/remove/is helpers", () => {
    const conds: Condition[] = [];
    setStatusCondition(conds, { type: "A", status: "True", reason: "R", message: "" });
    setStatusCondition(conds, { type: "B", status: "False", reason: "R", message: "" });
    expect(findStatusCondition(conds, "A")?.status).toBe("True");
    expect(isStatusConditionTrue(conds, "A")).toBe(true);
    expect(isStatusConditionTrue(conds, "B")).toBe(false);
    expect(isStatusConditionFalse(conds, "B")).toBe(true);
    expect(isStatusConditionTrue(undefined, "A")).toBe(false);
    expect(isStatusConditionPresentAndEqual(conds, "B", "False")).toBe(true);
    expect(removeStatusCondition(conds, "A")).toBe(true);
    expect(removeStatusCondition(conds, "A")).toBe(false);
    expect(conds.map((c) => c.type)).toEqual(["B"]);
    expect(timeNow(t0)).toBe("2026-01-01T00:00:00Z");
  });
});
