import { describe, expect, it } from "vitest";
import { defineKind, kindKey, kinds, parseApiVersion } from "../../src/index.js";

describe("defineKind", () => {
  it("derives apiVersion for named and core groups", () => {
    const k = defineKind({
      group: "demo.my.domain",
      version: "v1",
      kind: "AppCluster",
      plural: "appclusters",
      namespaced: true,
    });
    expect(k.apiVersion).toBe("demo.my.domain/v1");
    expect(kinds.Pod.apiVersion).toBe("v1");
    expect(kinds.HorizontalPodAutoscaler.apiVersion).toBe("autoscaling/v2");
    expect(Object.isFrozen(k)).toBe(true);
    expect(kindKey(k)).toBe("demo.my.domain/v1/AppCluster");
  });

  it("rejects empty fields and upper-case plurals", () => {
    expect(() =>
      defineKind({ group: "g", version: "v1", kind: "", plural: "xs", namespaced: true }),
    ).toThrow(/kind must not be empty/);
    expect(() =>
      defineKind({ group: "g", version: "v1", kind: "X", plural: "Xs", namespaced: true }),
    ).toThrow(/lower-case/);
  });

  it("parses apiVersion", () => {
    expect(parseApiVersion("v1")).toEqual({ group: "", version: "v1" });
    expect(parseApiVersion("apps/v1")).toEqual({ group: "apps", version: "v1" });
  });
});
