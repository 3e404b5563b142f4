/**
 * DESIGN.md §4: how TypeScript types become schema, through the generator: keywords, literal
 * unions and string enums, arrays (readonly too), maps, nullable, optional, classes, `extends`,
 * type aliases, imports across files and re-exports, and the @opgen/runtime aliases.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import { afterAll, describe, expect, it } from "vitest";
import { generateCrds } from "../../src/generators/crd/index.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";

const root = mkdtempSync(join(tmpdir(), "opgen-crd-types-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

async function schemaOf(files: Record<string, string>): Promise<JSONSchemaProps> {
  const dir = join(root, `p${n++}`);
  mkdirSync(join(dir, "src/api/v1"), { recursive: true });
  writeFileSync(
    join(dir, "src/api/v1/groupversion.ts"),
    '/** @groupName demo.example.com */\nexport const GroupVersion = { version: "v1" } as const;\n',
  );
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, "src/api/v1", name, ".."), { recursive: true });
    writeFileSync(join(dir, "src/api/v1", name), text);
  }
  const r = await generateCrds({ projectDir: dir });
  expect(r.diagnostics.map(formatDiagnostic)).toEqual([]);
  return (
    r.crds[0]!.object as { spec: { versions: { schema: { openAPIV3Schema: JSONSchemaProps } }[] } }
  ).spec.versions[0]!.schema.openAPIV3Schema;
}

const RUNTIME =
  'import type { Condition, Duration, int32, int64, IntOrString, MicroTime, ObjectMeta, Quantity, Time } from "@opgen/runtime";\n';

describe("TypeScript to schema", () => {
  it("maps keywords, unions, enums, arrays, maps, nullable and runtime aliases", async () => {
    const s = await schemaOf({
      "t.types.ts": `${RUNTIME}
export enum Color { Red = "red", Blue = "blue" }
export type Level = "low" | "high";
export interface Spec {
  s: string;
  n?: number;
  b?: boolean;
  i32?: int32;
  i64?: int64;
  level?: Level;
  color?: Color;
  inline?: "a" | "b" | null;
  list?: readonly string[];
  generic?: Array<int32>;
  ro?: ReadonlyArray<string>;
  map?: Record<string, int32>;
  keyed?: Record<Level, string>;
  index?: { [key: string]: boolean };
  maybe?: string | null;
  time?: Time;
  micro?: MicroTime;
  duration?: Duration;
  quantity?: Quantity;
  ios?: IntOrString;
  conditions?: Condition[];
  nested?: { inner: string; other?: int32 };
}
/** @resource */
export class Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec!: Spec;
  static helper = 1;
  describe(): string { return "x"; }
}
`,
    });
    const p = s.properties!.spec!.properties!;
    expect(s.required).toEqual(["spec"]);
    expect(s.properties!.metadata).toEqual({ type: "object" });
    expect(p.s).toEqual({ type: "string" });
    expect(p.n).toEqual({ type: "number" });
    expect(p.b).toEqual({ type: "boolean" });
    expect(p.i32).toEqual({ type: "integer", format: "int32" });
    expect(p.i64).toEqual({ type: "integer", format: "int64" });
    expect(p.level).toEqual({ type: "string", enum: ["low", "high"] });
    expect(p.color).toEqual({ type: "string", enum: ["red", "blue"] });
    expect(p.inline).toEqual({ type: "string", enum: ["a", "b"], nullable: true });
    expect(p.list).toEqual({ type: "array", items: { type: "string" } });
    expect(p.generic).toEqual({ type: "array", items: { type: "integer", format: "int32" } });
    expect(p.ro).toEqual({ type: "array", items: { type: "string" } });
    expect(p.map).toEqual({
      type: "object",
      additionalProperties: { type: "integer", format: "int32" },
    });
    expect(p.keyed).toEqual({ type: "object", additionalProperties: { type: "string" } });
    expect(p.index).toEqual({ type: "object", additionalProperties: { type: "boolean" } });
    expect(p.maybe).toEqual({ type: "string", nullable: true });
    expect(p.time).toEqual({ type: "string", format: "date-time" });
    expect(p.micro).toEqual({ type: "string", format: "date-time" });
    expect(p.duration).toEqual({ type: "string" });
    expect(p.quantity?.["x-kubernetes-int-or-string"]).toBe(true);
    expect(p.quantity?.pattern).toMatch(/^\^\(\\\+\|-\)\?/);
    expect(p.ios).toEqual({
      anyOf: [{ type: "integer" }, { type: "string" }],
      "x-kubernetes-int-or-string": true,
    });
    expect(p.conditions?.items?.required).toEqual([
      "lastTransitionTime",
      "message",
      "reason",
      "status",
      "type",
    ]);
    expect(p.nested).toEqual({
      type: "object",
      properties: { inner: { type: "string" }, other: { type: "integer", format: "int32" } },
      required: ["inner"],
    });
    expect(s.properties!.spec!.required).toEqual(["s"]);
    expect(Object.keys(s.properties!)).not.toContain("helper");
  });

  it("keeps both values, under allOf, when a field overrides its type's validation (as controller-gen)", async () => {
    const s = await schemaOf({
      "t.types.ts": `${RUNTIME}
/**
 * @validation MinLength=1
 * @validation MaxLength=255
 */
export type Alias = string;
/** @validation MinLength=4 */
export type Local = string;
export interface Spec {
  /**
   * @validation MinLength=10
   * @validation MaxLength=10
   */
  alias?: Alias;
  /**
   * @validation MinLength=10
   * @validation MaxLength=10
   */
  local?: Local;
  /** @validation MinLength=1 */
  same?: Alias;
}
/** @resource */
export interface Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Spec;
}
`,
    });
    const p = s.properties!.spec!.properties!;
    expect(p.alias).toEqual({
      type: "string",
      allOf: [
        { maxLength: 255, minLength: 1 },
        { maxLength: 10, minLength: 10 },
      ],
    });
    expect(p.local).toEqual({
      type: "string",
      maxLength: 10,
      allOf: [{ minLength: 4 }, { minLength: 10 }],
    });
    expect(p.same).toEqual({ type: "string", maxLength: 255, minLength: 1 });
  });

  it("follows imports, re-exports and extends; a field's doc wins over its type's", async () => {
    const s = await schemaOf({
      "shared/base.ts":
        "/** Base holds shared fields. */\nexport interface Base {\n  /** The name. */\n  name: string;\n}\n/** A port number. */\nexport type Port = number;\n",
      "shared/index.ts": 'export * from "./base.js";\n',
      "t.types.ts": `${RUNTIME}import { type Base, type Port } from "./shared/index.js";
export interface Spec extends Base {
  port?: Port;
  /** Where to listen. */
  listen?: Port;
  base?: Base;
}
/** @resource */
export interface Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Spec;
}
`,
    });
    const spec = s.properties!.spec!;
    expect(spec.required).toEqual(["name"]);
    expect(spec.properties!.name).toEqual({ type: "string", description: "The name." });
    expect(spec.properties!.port).toEqual({ type: "number", description: "A port number." });
    expect(spec.properties!.listen).toEqual({ type: "number", description: "Where to listen." });
    expect(spec.properties!.base?.description).toBe("Base holds shared fields.");
  });

  it("expands @kubernetes/client-node models as controller-gen expands core/v1 types", async () => {
    const s = await schemaOf({
      "t.types.ts": `${RUNTIME}import type { V1EnvVar, V1PodTemplateSpec, V1ResourceRequirements } from "@kubernetes/client-node";
import * as k8s from "@kubernetes/client-node";
export interface Spec {
  env?: V1EnvVar[];
  resources?: V1ResourceRequirements;
  template?: V1PodTemplateSpec;
  selector?: k8s.V1LabelSelector;
}
/** @resource */
export interface Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Spec;
}
`,
    });
    const p = s.properties!.spec!.properties!;
    const env = p.env!.items!;
    expect(env.description).toBe(
      "EnvVar represents an environment variable present in a Container.",
    );
    expect(env.required).toEqual(["name"]);
    expect(env.properties!.valueFrom!.properties!.secretKeyRef!.required).toEqual(["key"]);
    const limits = p.resources!.properties!.limits!;
    expect(limits.type).toBe("object");
    expect(limits.additionalProperties).toMatchObject({
      anyOf: [{ type: "integer" }, { type: "string" }],
      "x-kubernetes-int-or-string": true,
    });
    const pod = p.template!.properties!;
    expect(pod.metadata).toMatchObject({ type: "object" });
    expect(pod.metadata!.properties).toBeUndefined();
    const container = pod.spec!.properties!.containers!.items!;
    expect(container.required).toEqual(["name"]);
    expect(container.properties!.ports!.items!.properties!.containerPort).toMatchObject({
      type: "integer",
      format: "int32",
    });
    expect(
      container.properties!.livenessProbe!.properties!.httpGet!.properties!.port,
    ).toMatchObject({ "x-kubernetes-int-or-string": true });
    expect(p.selector!.properties!.matchLabels).toMatchObject({
      type: "object",
      additionalProperties: { type: "string" },
    });
  });

  it("gives embedded Kubernetes types the 1.32 catalog's list keys, map types, defaults and formats", async () => {
    const s = await schemaOf({
      "t.types.ts": `${RUNTIME}import type { ConditionStatus, JSONValue, RawExtension } from "@opgen/runtime";
import type { V1Condition, V1EnvFromSource, V1ObjectReference, V1ServicePort, V1Toleration } from "@kubernetes/client-node";
export interface Spec {
  ports?: V1ServicePort[];
  envFrom?: V1EnvFromSource[];
  owner?: V1ObjectReference;
  tolerations?: V1Toleration[];
  raw?: RawExtension;
  value?: JSONValue;
}
export interface Status {
  conditions?: V1Condition[];
  phase?: ConditionStatus;
}
/** @resource */
export interface Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Spec;
  status?: Status;
}
`,
    });
    const p = s.properties!.spec!.properties!;
    const port = p.ports!.items!;
    expect(port.required).toEqual(["port"]);
    expect(port.properties!.protocol).toMatchObject({ type: "string", default: "TCP" });
    expect(port.properties!.targetPort).toMatchObject({ "x-kubernetes-int-or-string": true });
    // An inline-embedded LocalObjectReference brings its atomic map type and name default.
    const configMapRef = p.envFrom!.items!.properties!.configMapRef!;
    expect(configMapRef["x-kubernetes-map-type"]).toBe("atomic");
    expect(configMapRef.properties!.name!.default).toBe("");
    expect(p.owner!["x-kubernetes-map-type"]).toBe("atomic");
    expect(p.tolerations!.items!.properties!.tolerationSeconds).toMatchObject({
      type: "integer",
      format: "int64",
    });
    expect(p.raw).toMatchObject({ type: "object", "x-kubernetes-preserve-unknown-fields": true });
    expect(p.value).toMatchObject({ "x-kubernetes-preserve-unknown-fields": true });
    const status = s.properties!.status!.properties!;
    const condition = status.conditions!.items!;
    expect(condition.required).toEqual([
      "lastTransitionTime",
      "message",
      "reason",
      "status",
      "type",
    ]);
    expect(condition.properties!.status!.enum).toEqual(["True", "False", "Unknown"]);
    expect(condition.properties!.type!.maxLength).toBe(316);
    // @opgen/runtime's ConditionStatus is a plain string, as metav1.ConditionStatus is.
    expect(status.phase).toEqual({ type: "string" });
  });

  it("refuses a client-node type that Kubernetes 1.32 does not have", async () => {
    const dir = join(root, `p${n++}`);
    mkdirSync(join(dir, "src/api/v1"), { recursive: true });
    writeFileSync(
      join(dir, "src/api/v1/groupversion.ts"),
      '/** @groupName demo.example.com */\nexport const GroupVersion = { version: "v1" } as const;\n',
    );
    writeFileSync(
      join(dir, "src/api/v1/t.types.ts"),
      `import type { V1PodCertificateProjection } from "@kubernetes/client-node";
/** @resource */
export interface Thing {
  apiVersion?: string;
  kind?: string;
  spec?: { projection?: V1PodCertificateProjection };
}
`,
    );
    const r = await generateCrds({ projectDir: dir });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'src/api/v1/t.types.ts:6:25: field "spec.projection": V1PodCertificateProjection from @kubernetes/client-node is not a type of the Kubernetes 1.32 API opgen generates schemas from; use a 1.32 type or declare the fields yourself',
    ]);
  });
});
