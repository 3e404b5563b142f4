import { parseSelector } from "@opgen/apimachinery/selectors";
import { describe, expect, it } from "vitest";
import {
  and,
  annotationChanged,
  defineKind,
  enqueueForObject,
  enqueueForOwner,
  generationChanged,
  type KubeObject,
  kinds,
  labelChanged,
  labelSelector,
  not,
  or,
  resourceVersionChanged,
} from "../../src/index.js";

const obj = (meta: KubeObject["metadata"]): KubeObject => ({
  metadata: { name: "x", namespace: "ns", ...meta },
});

describe("predicates", () => {
  it("generationChanged passes creates and only spec changes", () => {
    const p = generationChanged();
    expect(p.create).toBeUndefined();
    expect(p.update?.(obj({ generation: 1 }), obj({ generation: 1, resourceVersion: "9" }))).toBe(
      false,
    );
    expect(p.update?.(obj({ generation: 1 }), obj({ generation: 2 }))).toBe(true);
  });

  it("resourceVersion, label and annotation changes", () => {
    expect(
      resourceVersionChanged().update?.(
        obj({ resourceVersion: "1" }),
        obj({ resourceVersion: "1" }),
      ),
    ).toBe(false);
    expect(
      resourceVersionChanged().update?.(
        obj({ resourceVersion: "1" }),
        obj({ resourceVersion: "2" }),
      ),
    ).toBe(true);
    expect(labelChanged().update?.(obj({ labels: { a: "1" } }), obj({ labels: { a: "1" } }))).toBe(
      false,
    );
    expect(labelChanged().update?.(obj({ labels: { a: "1" } }), obj({ labels: { a: "2" } }))).toBe(
      true,
    );
    expect(labelChanged().update?.(obj({}), obj({ labels: { a: "2" } }))).toBe(true);
    expect(annotationChanged().update?.(obj({ annotations: { a: "1" } }), obj({}))).toBe(true);
  });

  it("labelSelector and combinators", () => {
    const sel = labelSelector({ app: "web" });
    expect(sel.create?.(obj({ labels: { app: "web" } }))).toBe(true);
    expect(sel.create?.(obj({ labels: { app: "db" } }))).toBe(false);
    const both = and(sel, generationChanged());
    expect(
      both.update?.(
        obj({ labels: { app: "web" }, generation: 1 }),
        obj({ labels: { app: "web" }, generation: 2 }),
      ),
    ).toBe(true);
    expect(
      both.update?.(
        obj({ labels: { app: "web" }, generation: 1 }),
        obj({ labels: { app: "web" }, generation: 1 }),
      ),
    ).toBe(false);
    const either = or(sel, generationChanged());
    expect(either.update?.(obj({ generation: 1 }), obj({ generation: 2 }))).toBe(true);
    expect(not(sel).create?.(obj({ labels: { app: "web" } }))).toBe(false);
  });
});

describe("selectors", () => {
  it("parses the API server's label selector syntax", () => {
    const s = parseSelector(
      "app=web,tier!=db,env in (prod, staging),zone notin (a),release,!canary",
    );
    expect(s.matches({ app: "web", env: "prod", release: "1" })).toBe(true);
    expect(s.matches({ app: "web", env: "dev", release: "1" })).toBe(false);
    expect(s.matches({ app: "web", env: "prod", release: "1", canary: "y" })).toBe(false);
    expect(s.matches({ app: "web", env: "prod", release: "1", tier: "db" })).toBe(false);
    expect(s.matches({ app: "web", env: "prod", zone: "a", release: "1" })).toBe(false);
    expect(parseSelector("").matches(undefined)).toBe(true);
    expect(parseSelector("a==b").matches({ a: "b" })).toBe(true);
    expect(() => parseSelector("a=b,,c")).toThrow(/unable to parse requirement: found/);
    expect(() => parseSelector("a in b")).toThrow(/unable to parse requirement: found/);
  });
});

describe("handlers", () => {
  const App = defineKind({
    group: "demo.my.domain",
    version: "v1",
    kind: "AppCluster",
    plural: "appclusters",
    namespaced: true,
  });
  it("enqueueForObject maps to the object's key", () => {
    expect(enqueueForObject()(obj({}))).toEqual([{ namespace: "ns", name: "x" }]);
  });
  it("enqueueForOwner maps to the controller owner of the right group/kind, any version", () => {
    const pod = obj({
      ownerReferences: [
        {
          apiVersion: "demo.my.domain/v1beta1",
          kind: "AppCluster",
          name: "a",
          uid: "1",
          controller: true,
        },
        { apiVersion: "demo.my.domain/v1", kind: "AppCluster", name: "b", uid: "2" },
        { apiVersion: "other/v1", kind: "AppCluster", name: "c", uid: "3", controller: true },
      ],
    });
    expect(enqueueForOwner(App)(pod)).toEqual([{ namespace: "ns", name: "a" }]);
    expect(enqueueForOwner(App, { onlyController: false })(pod)).toEqual([
      { namespace: "ns", name: "a" },
      { namespace: "ns", name: "b" },
    ]);
    expect(
      enqueueForOwner(kinds.Namespace)(
        obj({
          ownerReferences: [
            { apiVersion: "v1", kind: "Namespace", name: "n", uid: "u", controller: true },
          ],
        }),
      ),
    ).toEqual([{ namespace: undefined, name: "n" }]);
  });
});
