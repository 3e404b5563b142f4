import { describe, expect, it } from "vitest";
import { catalogFor } from "../src/catalog/index.js";
import {
  applyStrategicMergePatch,
  catalogNode,
  listMapKey,
  schemaNode,
  ssa,
} from "../src/merge/index.js";

const catalog = catalogFor("1.32");

describe("strategic merge patch from the catalog", () => {
  const deployment = catalogNode(catalog, "io.k8s.api.apps.v1.Deployment");

  it("merges containers by name, env by name, and replaces lists without a strategy", () => {
    const live = {
      metadata: { labels: { app: "a" }, finalizers: ["x"] },
      spec: {
        template: {
          spec: {
            containers: [
              { name: "web", image: "v1", env: [{ name: "A", value: "1" }], args: ["--a"] },
              { name: "side", image: "s1" },
            ],
          },
        },
      },
    };
    const out = applyStrategicMergePatch(
      live,
      {
        metadata: { labels: { tier: "web" }, finalizers: ["y"] },
        spec: {
          template: {
            spec: {
              containers: [
                { name: "web", image: "v2", env: [{ name: "B", value: "2" }], args: ["--b"] },
              ],
            },
          },
        },
      },
      deployment,
    );
    expect(out).toEqual({
      metadata: { labels: { app: "a", tier: "web" }, finalizers: ["x", "y"] },
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: "web",
                image: "v2",
                env: [
                  { name: "A", value: "1" },
                  { name: "B", value: "2" },
                ],
                args: ["--b"],
              },
              { name: "side", image: "s1" },
            ],
          },
        },
      },
    });
    expect(live.spec.template.spec.containers[0]!.image).toBe("v1");
  });

  it("honours $patch, $retainKeys, $setElementOrder and $deleteFromPrimitiveList", () => {
    const live = {
      metadata: { finalizers: ["a", "b"] },
      spec: {
        strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } },
        template: { spec: { containers: [{ name: "x" }, { name: "y" }] } },
      },
    };
    const out = applyStrategicMergePatch(
      live,
      {
        metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] },
        spec: {
          strategy: { $retainKeys: ["type"], type: "Recreate" },
          template: {
            spec: {
              "$setElementOrder/containers": [{ name: "y" }, { name: "x" }],
              containers: [{ name: "x", $patch: "delete" }],
            },
          },
        },
      },
      deployment,
    );
    expect(out).toEqual({
      metadata: { finalizers: ["b"] },
      spec: { strategy: { type: "Recreate" }, template: { spec: { containers: [{ name: "y" }] } } },
    });
    expect(() => applyStrategicMergePatch({}, { $patch: "bogus" }, deployment)).toThrow(
      /Unknown patch type/,
    );
  });

  it("keys Service ports by port (their patch merge key)", () => {
    const out = applyStrategicMergePatch(
      {
        spec: {
          ports: [
            { port: 80, name: "http" },
            { port: 443, name: "https" },
          ],
        },
      },
      { spec: { ports: [{ port: 443, targetPort: 8443 }] } },
      catalogNode(catalog, "io.k8s.api.core.v1.Service"),
    );
    expect(out.spec).toEqual({
      ports: [
        { port: 80, name: "http" },
        { port: 443, name: "https", targetPort: 8443 },
      ],
    });
  });
});

describe("list semantics", () => {
  it("completes list-map keys with their defaults, as server-side apply does", () => {
    const ports = catalogNode(catalog, "io.k8s.api.core.v1.ServiceSpec")!.field("ports")!;
    expect(ports.listType).toBe("map");
    expect(listMapKey({ port: 80 }, ports)).toBe(listMapKey({ port: 80, protocol: "TCP" }, ports));
    expect(listMapKey({ port: 80, protocol: "UDP" }, ports)).not.toBe(
      listMapKey({ port: 80 }, ports),
    );
    const cports = catalogNode(catalog, "io.k8s.api.core.v1.Container")!.field("ports")!;
    expect(listMapKey({ containerPort: 8080 }, cports)).toBe('[8080,"TCP"]');
  });

  it("reads CRD schemas the same way", () => {
    const node = schemaNode({
      type: "object",
      properties: {
        items: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name", "kind"],
          items: {
            type: "object",
            properties: { name: { type: "string" }, kind: { type: "string", default: "A" } },
          },
        },
        labels: { type: "object", additionalProperties: { type: "string" } },
      },
    });
    const items = node.field("items")!;
    expect(listMapKey({ name: "n" }, items)).toBe('["n","A"]');
    expect(node.field("labels")!.isMap).toBe(true);
    expect(node.field("items")!.isMap).toBe(false);
  });
});

describe("a built-in's zero value (what the field manager compares a create against)", () => {
  it("has required fields at their zero and spec and status as structs", () => {
    expect(
      ssa.definitionZero(catalog, "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler"),
    ).toEqual({
      metadata: {},
      spec: { maxReplicas: 0, scaleTargetRef: { kind: "", name: "" } },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
    // A required pointer and a required slice are null; the template is a struct.
    const d = ssa.definitionZero(catalog, "io.k8s.api.apps.v1.Deployment") as {
      spec: Record<string, unknown>;
    };
    expect(d.spec.selector).toEqual({});
    expect(d.spec.template).toEqual({ metadata: {}, spec: { containers: null } });
    expect(ssa.definitionZero(catalog, "io.k8s.api.core.v1.Nope")).toBeUndefined();
  });

  it("makes a create own no '.' on parents that the zero value has", () => {
    const name = "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler";
    const scope = {
      manager: "m",
      apiVersion: "autoscaling/v1",
      atom: ssa.definitionAtom(catalog, name)!,
      zero: ssa.definitionZero(catalog, name),
      now: () => "T",
    };
    const hpa = {
      spec: {
        scaleTargetRef: { kind: "Deployment", name: "web" },
        maxReplicas: 3,
        minReplicas: 1,
      },
    };
    expect(ssa.updateManagedFields(undefined, hpa, scope)[0]!.fieldsV1).toEqual({
      "f:spec": { "f:maxReplicas": {}, "f:minReplicas": {}, "f:scaleTargetRef": {} },
    });
    const { zero: _z, ...untyped } = scope;
    expect(ssa.updateManagedFields(undefined, hpa, untyped)[0]!.fieldsV1).toEqual({
      "f:spec": { ".": {}, "f:maxReplicas": {}, "f:minReplicas": {}, "f:scaleTargetRef": {} },
    });
  });
});
