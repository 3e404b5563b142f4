/**
 * The defaulting patch: RFC 6902 operations from the request's object to the defaulted one,
 * applied back with fast-json-patch's applyPatch (as kube-apiserver applies them) to prove each
 * reproduces the defaulted object exactly, and checked to touch only what changed.
 */
import fastJsonPatch from "fast-json-patch";
import { describe, expect, it } from "vitest";
import { createJsonPatch } from "../../src/webhook/patch.js";

function roundTrip(before: object, after: object) {
  const ops = createJsonPatch(before, after);
  const applied = fastJsonPatch.applyPatch(
    structuredClone(before),
    ops as fastJsonPatch.Operation[],
    true,
  ).newDocument;
  expect(applied).toEqual(JSON.parse(JSON.stringify(after)));
  return ops;
}

describe("createJsonPatch", () => {
  it("is empty when nothing changed", () => {
    const obj = { metadata: { name: "a", labels: { x: "1" } }, spec: { list: [1, 2], n: null } };
    expect(createJsonPatch(obj, structuredClone(obj))).toEqual([]);
  });

  it("adds a missing label without touching anything else", () => {
    const before = { metadata: { name: "a" }, spec: { size: 2 } };
    const after = { metadata: { name: "a", labels: { tier: "web" } }, spec: { size: 2 } };
    expect(roundTrip(before, after)).toEqual([
      { op: "add", path: "/metadata/labels", value: { tier: "web" } },
    ]);
  });

  it("replaces and removes nested fields", () => {
    const before = { spec: { a: { b: 1, c: 2 }, d: "x" } };
    const after = { spec: { a: { b: 3 }, d: "x" } };
    const ops = roundTrip(before, after);
    expect(ops).toContainEqual({ op: "replace", path: "/spec/a/b", value: 3 });
    expect(ops).toContainEqual({ op: "remove", path: "/spec/a/c" });
    expect(ops).toHaveLength(2);
  });

  it("handles arrays that grow, shrink, change in place and hold objects", () => {
    expect(roundTrip({ l: [1, 2] }, { l: [1, 2, 3] })).toEqual([
      { op: "add", path: "/l/2", value: 3 },
    ]);
    roundTrip({ l: [1, 2, 3] }, { l: [2, 3] });
    roundTrip({ l: [1, 2, 3] }, { l: [] });
    expect(
      roundTrip(
        { l: [{ name: "c", image: "x" }] },
        { l: [{ name: "c", image: "x", pull: "IfNotPresent" }] },
      ),
    ).toEqual([{ op: "add", path: "/l/0/pull", value: "IfNotPresent" }]);
    roundTrip({ l: [[1], [2]] }, { l: [[1, 5], [2]] });
  });

  it("replaces a value whose type changed (object, array, null, scalar)", () => {
    roundTrip({ a: {} }, { a: [] });
    roundTrip({ a: [] }, { a: {} });
    roundTrip({ a: null }, { a: { b: 1 } });
    roundTrip({ a: { b: 1 } }, { a: "s" });
  });

  it("escapes / and ~ in keys (annotations such as example.com/owner)", () => {
    const ops = roundTrip(
      { metadata: { annotations: { "example.com/a": "1" } } },
      { metadata: { annotations: { "example.com/a": "1", "b~c/d": "2" } } },
    );
    expect(ops).toEqual([{ op: "add", path: "/metadata/annotations/b~0c~1d", value: "2" }]);
  });

  it("treats a field set to undefined as absent, as it is on the wire", () => {
    const before = { spec: { a: 1, b: 2 } };
    const ops = roundTrip(before, { spec: { a: 1, b: undefined } });
    expect(ops).toEqual([{ op: "remove", path: "/spec/b" }]);
    expect(createJsonPatch({ spec: { a: 1 } }, { spec: { a: 1, c: undefined } })).toEqual([]);
  });
});
