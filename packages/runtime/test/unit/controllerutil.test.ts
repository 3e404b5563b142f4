import { describe, expect, it } from "vitest";
import {
  AlreadyOwnedError,
  addFinalizer,
  createMergePatch,
  getControllerOf,
  hasControllerReference,
  hasFinalizer,
  hasOwnerReference,
  type KubeObject,
  removeFinalizer,
  removeOwnerReference,
  semanticEqual,
  setControllerReference,
  setOwnerReference,
} from "../../src/index.js";

const owner = (
  name = "app",
  namespace: string | undefined = "ns",
  uid = `uid-${name}`,
): KubeObject => ({
  apiVersion: "demo.my.domain/v1",
  kind: "AppCluster",
  metadata: { name, namespace, uid },
});

describe("owner references", () => {
  it("sets a controller reference with controller and blockOwnerDeletion", () => {
    const pod: KubeObject = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "ns" },
    };
    setControllerReference(owner(), pod);
    expect(pod.metadata?.ownerReferences).toEqual([
      {
        apiVersion: "demo.my.domain/v1",
        kind: "AppCluster",
        name: "app",
        uid: "uid-app",
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    // idempotent: same owner updates in place
    setControllerReference(owner(), pod);
    expect(pod.metadata?.ownerReferences).toHaveLength(1);
    expect(hasControllerReference(owner(), pod)).toBe(true);
    expect(getControllerOf(pod)?.name).toBe("app");
  });

  it("refuses a second controller", () => {
    const pod: KubeObject = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "ns" },
    };
    setControllerReference(owner("a"), pod);
    expect(() => setControllerReference(owner("b"), pod)).toThrow(AlreadyOwnedError);
  });

  it("refuses cross-namespace and namespaced owners of cluster-scoped objects", () => {
    const pod: KubeObject = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "other" },
    };
    expect(() => setControllerReference(owner(), pod)).toThrow(/cross-namespace/);
    const node: KubeObject = { apiVersion: "v1", kind: "Node", metadata: { name: "n" } };
    expect(() => setOwnerReference(owner(), node)).toThrow(/cluster-scoped/);
    // a cluster-scoped owner may own a namespaced object
    setControllerReference(owner("c", ""), pod);
    expect(hasOwnerReference(owner("c", ""), pod)).toBe(true);
  });

  it("requires a uid on the owner", () => {
    const pod: KubeObject = { metadata: { name: "p", namespace: "ns" } };
    expect(() =>
      setOwnerReference(
        { apiVersion: "v1", kind: "X", metadata: { name: "x", namespace: "ns" } },
        pod,
      ),
    ).toThrow(/uid/);
  });

  it("adds plain owner references beside a controller and removes them", () => {
    const pod: KubeObject = { metadata: { name: "p", namespace: "ns" } };
    setControllerReference(owner("a"), pod);
    setOwnerReference(owner("b"), pod);
    expect(pod.metadata?.ownerReferences?.map((r) => [r.name, r.controller])).toEqual([
      ["a", true],
      ["b", undefined],
    ]);
    expect(removeOwnerReference(owner("b"), pod)).toBe(true);
    expect(removeOwnerReference(owner("b"), pod)).toBe(false);
    expect(pod.metadata?.ownerReferences).toHaveLength(1);
  });
});

describe("finalizers", () => {
  it("adds once, reports changes, removes", () => {
    const o: KubeObject = {};
    expect(addFinalizer(o, "x/f")).toBe(true);
    expect(addFinalizer(o, "x/f")).toBe(false);
    expect(hasFinalizer(o, "x/f")).toBe(true);
    expect(o.metadata?.finalizers).toEqual(["x/f"]);
    expect(removeFinalizer(o, "x/g")).toBe(false);
    expect(removeFinalizer(o, "x/f")).toBe(true);
    expect(hasFinalizer(o, "x/f")).toBe(false);
  });
});

describe("semantic equality and merge patches", () => {
  it("treats absent, undefined and empty collections as equal", () => {
    expect(semanticEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(semanticEqual({ a: [] }, {})).toBe(true);
    expect(semanticEqual({ a: {} }, { a: undefined })).toBe(true);
    expect(semanticEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(semanticEqual({ a: { b: "1" } }, { a: { b: 1 } })).toBe(false);
  });

  it("computes minimal merge patches with nulls for removals", () => {
    expect(createMergePatch({ a: 1, b: { c: 1, d: 2 } }, { a: 1, b: { c: 1, d: 3 } })).toEqual({
      b: { d: 3 },
    });
    expect(createMergePatch({ a: 1, b: 2 }, { a: 1 })).toEqual({ b: null });
    expect(createMergePatch({ l: [1] }, { l: [1, 2] })).toEqual({ l: [1, 2] });
    expect(createMergePatch({ a: 1 }, { a: 1 })).toBeUndefined();
  });
});
