import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { catalogFor } from "../src/catalog/index.js";

const catalog = catalogFor("1.32");

describe("catalog resources", () => {
  it("resolves kinds and plurals to discovery facts, preferred version by default", () => {
    const deploy = catalog.findResource({ group: "apps", kind: "Deployment" })!;
    expect(deploy).toMatchObject({
      version: "v1",
      plural: "deployments",
      singular: "deployment",
      namespaced: true,
      shortNames: ["deploy"],
      categories: ["all"],
      stability: "ga",
    });
    expect(deploy.verbs).toEqual([
      "create",
      "delete",
      "deletecollection",
      "get",
      "list",
      "patch",
      "update",
      "watch",
    ]);
    expect(deploy.subresources.map((s) => s.name)).toEqual(["scale", "status"]);
    expect(deploy.subresources[0]).toMatchObject({
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
    });
    expect(catalog.findResource({ group: "", plural: "namespaces" })).toMatchObject({
      kind: "Namespace",
      namespaced: false,
      shortNames: ["ns"],
    });
    expect(
      catalog.findResource({ group: "autoscaling", kind: "HorizontalPodAutoscaler" })!.version,
    ).toBe("v2");
    expect(
      catalog.findResource({
        group: "autoscaling",
        version: "v1",
        kind: "HorizontalPodAutoscaler",
      }),
    ).toBeDefined();
    expect(catalog.preferredVersion("autoscaling")).toBe("v2");
    expect(catalog.findResource({ group: "apps", kind: "Nope" })).toBeUndefined();
  });

  it("keeps verbs as served: componentstatuses cannot be watched, namespaces not deleted by collection", () => {
    expect(catalog.findResource({ group: "", plural: "componentstatuses" })!.verbs).toEqual([
      "get",
      "list",
    ]);
    expect(catalog.findResource({ group: "", plural: "namespaces" })!.verbs).not.toContain(
      "deletecollection",
    );
    expect(catalog.findResource({ group: "", plural: "bindings" })!.verbs).toEqual(["create"]);
    const sa = catalog.findResource({ group: "", plural: "serviceaccounts" })!;
    expect(sa.subresources).toEqual([
      {
        name: "token",
        group: "authentication.k8s.io",
        version: "v1",
        kind: "TokenRequest",
        verbs: ["create"],
      },
    ]);
  });

  it("lists every GA group of 1.32 with one preferred version each", () => {
    const ga = catalog.builtinResources().filter((r) => r.stability === "ga");
    const groups = new Set(ga.map((r) => r.group));
    for (const g of [
      "",
      "apps",
      "batch",
      "rbac.authorization.k8s.io",
      "coordination.k8s.io",
      "policy",
    ]) {
      expect(groups).toContain(g);
    }
    for (const g of groups) {
      const preferred = new Set(
        catalog
          .builtinResources()
          .filter((r) => r.group === g && r.preferred)
          .map((r) => r.version),
      );
      expect([...preferred], g).toHaveLength(1);
    }
  });
});

describe("catalog definitions", () => {
  it("keeps list-map keys, patch strategies and the +default values", () => {
    const spec = catalog.definition("io.k8s.api.core.v1.ServiceSpec")!;
    expect(spec.properties!.ports).toMatchObject({
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["port", "protocol"],
      "x-kubernetes-patch-merge-key": "port",
      "x-kubernetes-patch-strategy": "merge",
      items: { $ref: "io.k8s.api.core.v1.ServicePort" },
    });
    expect(
      catalog.definition("io.k8s.api.core.v1.ServicePort")!.properties!.protocol!.default,
    ).toBe("TCP");
    expect(
      catalog.definition("io.k8s.api.core.v1.LocalObjectReference")!.properties!.name!.default,
    ).toBe("");
    expect(
      catalog.definition("io.k8s.api.core.v1.LocalObjectReference")!["x-kubernetes-map-type"],
    ).toBe("atomic");
    expect(catalog.definition("io.k8s.api.core.v1.Nope")).toBeUndefined();
    expect(catalog.definitionName({ group: "batch", version: "v1", kind: "CronJob" })).toBe(
      "io.k8s.api.batch.v1.CronJob",
    );
  });

  it("keeps descriptions apart and reads them on demand", () => {
    expect(catalog.definition("io.k8s.api.core.v1.Container")).not.toHaveProperty("description");
    expect(catalog.description("io.k8s.api.core.v1.Container", "image")).toMatch(
      /Container image name/,
    );
    expect(catalog.description("io.k8s.api.core.v1.Container")).toMatch(
      /A single application container/,
    );
  });

  it("expands a definition into the inline schema a CRD carries", () => {
    const pod = catalog.expandSchema("io.k8s.api.core.v1.PodSpec");
    const ports = pod.properties!.containers!.items!.properties!.ports!;
    expect(ports["x-kubernetes-list-type"]).toBe("map");
    expect(ports["x-kubernetes-list-map-keys"]).toEqual(["containerPort", "protocol"]);
    expect(ports.items!.properties!.protocol).toEqual({ type: "string", default: "TCP" });
    expect(ports.items!.required).toEqual(["containerPort"]);
    expect(ports).not.toHaveProperty("x-kubernetes-patch-strategy");
    const limits = pod.properties!.containers!.items!.properties!.resources!.properties!.limits!;
    expect(limits.additionalProperties).toMatchObject({
      anyOf: [{ type: "integer" }, { type: "string" }],
      "x-kubernetes-int-or-string": true,
    });
    expect((limits.additionalProperties as { pattern: string }).pattern).toMatch(
      /^\^\(\\\+\|-\)\?/,
    );
    const probe = pod.properties!.containers!.items!.properties!.livenessProbe!;
    expect(probe.properties!.httpGet!.properties!.port).toEqual({
      anyOf: [{ type: "integer" }, { type: "string" }],
      "x-kubernetes-int-or-string": true,
    });
    expect(pod.properties!.imagePullSecrets!.items!["x-kubernetes-map-type"]).toBe("atomic");
    expect(pod).not.toHaveProperty("description");
    const described = catalog.expandSchema("io.k8s.api.core.v1.PodSpec", { descriptions: true });
    expect(described.properties!.containers!.description).toMatch(/List of containers/);
    expect(() => catalog.expandSchema("io.k8s.api.core.v1.Nope")).toThrow(/no definition/);
  });
});

describe("client-node models and controller-gen's view", () => {
  it("maps client-node model names to definitions, group-prefixed where two groups share a name", () => {
    expect(catalog.definitionOfModel("V1PodTemplateSpec")).toBe(
      "io.k8s.api.core.v1.PodTemplateSpec",
    );
    expect(catalog.definitionOfModel("V1JobTemplateSpec")).toBe(
      "io.k8s.api.batch.v1.JobTemplateSpec",
    );
    expect(catalog.definitionOfModel("V1Condition")).toBe(
      "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
    );
    expect(catalog.definitionOfModel("V2HorizontalPodAutoscalerSpec")).toBe(
      "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec",
    );
    expect(catalog.definitionOfModel("CoreV1Event")).toBe("io.k8s.api.core.v1.Event");
    expect(catalog.definitionOfModel("EventsV1Event")).toBe("io.k8s.api.events.v1.Event");
    expect(catalog.definitionOfModel("RbacV1Subject")).toBe("io.k8s.api.rbac.v1.Subject");
    // Two groups have a v1 Event: client-node never names either without its group.
    expect(catalog.definitionOfModel("V1Event")).toBeUndefined();
    // Newer than 1.32, or not a model name at all.
    expect(catalog.definitionOfModel("V1PodCertificateProjection")).toBeUndefined();
    expect(catalog.definitionOfModel("KubeConfig")).toBeUndefined();
  });

  it("carries an inline-embedded type's defaults, and for controller-gen its map type", () => {
    const envSource = catalog.expandSchema("io.k8s.api.core.v1.ConfigMapEnvSource");
    expect(envSource.properties!.name!.default).toBe("");
    expect(envSource["x-kubernetes-map-type"]).toBeUndefined();
    const cg = catalog.expandSchema("io.k8s.api.core.v1.ConfigMapEnvSource", {
      controllerGen: true,
    });
    expect(cg["x-kubernetes-map-type"]).toBe("atomic");
  });

  it("drops +default=ref(...) values only for controller-gen, which skips them", () => {
    const disk = catalog.expandSchema("io.k8s.api.core.v1.AzureDiskVolumeSource");
    expect(disk.properties!.cachingMode!.default).toBe("ReadWrite");
    expect(disk.properties!.fsType!.default).toBe("ext4");
    const cg = catalog.expandSchema("io.k8s.api.core.v1.AzureDiskVolumeSource", {
      controllerGen: true,
    });
    expect(cg.properties!.cachingMode!.default).toBeUndefined();
    expect(cg.properties!.kind!.default).toBeUndefined();
    expect(cg.properties!.fsType!.default).toBe("ext4");
  });

  it("writes replaced definitions as given, one copy per use", () => {
    const replace = { "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": { type: "object" } };
    const pod = catalog.expandSchema("io.k8s.api.core.v1.PodTemplateSpec", { replace });
    expect(pod.properties!.metadata).toEqual({ type: "object" });
    pod.properties!.metadata!.type = "string";
    expect(replace["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"].type).toBe("object");
  });
});

describe("catalog data", () => {
  it("is what the generator makes from the reference data (npm run catalog:check)", () => {
    const script = fileURLToPath(new URL("../../../scripts/catalog/generate.mjs", import.meta.url));
    const out = execFileSync(process.execPath, [script, "--check"], { encoding: "utf8" });
    expect(out).toMatch(/up to date/);
  });
});
