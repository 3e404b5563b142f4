/** The kinds create api refuses up front: manifests' own rule, and the types template's imports. */
import { describe, expect, it } from "vitest";
import { kindNameProblem } from "../../src/generators/crd/names-check.js";
import { checkNewKind } from "../../src/generators/scaffold/kind-name.js";
import { templateImports } from "../../src/generators/scaffold/render.js";

describe("kindNameProblem (shared by opgen manifests and create api)", () => {
  it.each([
    ["ThingList", 'a name ending in "List" is the list kind of Thing in every API group'],
    ["Status", "Kubernetes registers Status in every API group version"],
    ["ObjectMeta", "Kubernetes registers ObjectMeta in every API group version"],
    ["DeleteOptions", "Kubernetes registers DeleteOptions in every API group version"],
    ["List", "Kubernetes registers List in every API group version"],
  ])("refuses %s", (kind, problem) => {
    expect(kindNameProblem(kind)).toBe(problem);
  });

  it("accepts ordinary kinds", () => {
    for (const kind of ["AppCluster", "Listing", "StatusReport", "Condition"])
      expect(kindNameProblem(kind)).toBeUndefined();
  });
});

describe("checkNewKind", () => {
  it("reads the names the types template imports from the template itself", () => {
    expect(templateImports("api/types.ts.hbs")).toEqual([
      "Condition",
      "ObjectMeta",
      "defineKind",
      "GroupVersion",
    ]);
  });

  it.each([
    [
      "ThingList",
      /^invalid --kind "ThingList": a name ending in "List" .*, so opgen manifests would refuse it; choose another kind$/,
    ],
    [
      "Condition",
      /^invalid --kind "Condition": the scaffolded condition\.types\.ts imports a Condition of its own, .*; choose another kind$/,
    ],
    ["GroupVersion", /^invalid --kind "GroupVersion": .*imports a GroupVersion of its own/],
  ])("refuses %s in one line", (kind, message) => {
    expect(() => checkNewKind(kind)).toThrow(message);
  });

  it("accepts the tutorial's kinds", () => {
    for (const kind of ["AppCluster", "CronJob", "Guestbook"])
      expect(() => checkNewKind(kind)).not.toThrow();
  });
});
