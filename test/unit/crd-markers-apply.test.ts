/**
 * Every marker of the catalogue, applied through the generator: one field (or type, or root) per
 * marker, checked against the schema or CRD fragment controller-gen gives for its Go counterpart.
 * The last test fails when a marker is registered without a case here (or, for @rbac, without
 * Loose test mentioning it), so the catalogue cannot grow untested.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateCrds } from "../../src/generators/crd/index.js";
import { markerRegistry } from "../../src/generators/markers.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";

// biome-ignore lint/suspicious/noExplicitAny: generated CRDs are walked by key in assertions
type Loose = any;

const root = mkdtempSync(join(tmpdir(), "opgen-markers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

interface Generated {
  crd: Record<string, Loose>;
  spec: Record<string, Loose>;
}

async function generate(
  types: string,
  gv = '/** @groupName demo.example.com */\nexport const GroupVersion = { version: "v1" } as const;\n',
): Promise<Generated> {
  const dir = join(root, `p${n++}`);
  mkdirSync(join(dir, "src/api/v1"), { recursive: true });
  writeFileSync(join(dir, "src/api/v1/groupversion.ts"), gv);
  writeFileSync(
    join(dir, "src/api/v1/t.types.ts"),
    `import type { int32, ObjectMeta, Quantity, IntOrString } from "@opgen/runtime";\n${types}`,
  );
  const r = await generateCrds({ projectDir: dir });
  expect(r.diagnostics.map(formatDiagnostic)).toEqual([]);
  const crd = r.crds[0]!.object as Record<string, Loose>;
  return { crd, spec: crd.spec.versions[0].schema.openAPIV3Schema.properties.spec };
}

const withField = (field: string, extraTypes = "") =>
  `${extraTypes}\nexport interface S {\n${field}\n}\n/** @resource */\nexport interface K {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec?: S;\n}\n`;

/** [marker as written, field type, expected fragment of the field's schema] */
const fieldCases: [string, string, Record<string, unknown>][] = [
  ["@validation Minimum=1", "int32", { minimum: 1 }],
  ["@validation Maximum=1.5", "number", { maximum: 1.5 }],
  ["@validation ExclusiveMinimum=true", "int32", { exclusiveMinimum: true }],
  ["@validation ExclusiveMaximum=true", "int32", { exclusiveMaximum: true }],
  ["@validation MultipleOf=5", "int32", { multipleOf: 5 }],
  ["@validation MinLength=1", "string", { minLength: 1 }],
  ["@validation MaxLength=63", "string", { maxLength: 63 }],
  ["@validation Pattern=`^[a-z]+$`", "string", { pattern: "^[a-z]+$" }],
  ["@validation MinItems=1", "string[]", { minItems: 1 }],
  ["@validation MaxItems=3", "string[]", { maxItems: 3 }],
  ["@validation UniqueItems=true", "string[]", { uniqueItems: true }],
  ["@validation MinProperties=1", "Record<string, string>", { minProperties: 1 }],
  ["@validation MaxProperties=2", "Record<string, string>", { maxProperties: 2 }],
  ['@validation Enum=1;2;"foo"', "IntOrString", { enum: [1, 2, "foo"] }],
  ["@validation Format=date-time", "string", { format: "date-time" }],
  ["@validation Type=string", "int32", { type: "string" }],
  ["@validation Nullable", "string", { nullable: true }],
  ["@validation XIntOrString", "IntOrString", { "x-kubernetes-int-or-string": true }],
  [
    "@validation XPreserveUnknownFields",
    "unknown",
    { "x-kubernetes-preserve-unknown-fields": true },
  ],
  [
    "@validation XEmbeddedResource",
    "object",
    { "x-kubernetes-embedded-resource": true, type: "object" },
  ],
  // No schema from the type; the description and other markers still apply (kube-apiserver
  // wants a type, or unknown fields preserved, on every property).
  [
    "@validation Schemaless\n   * @validation XPreserveUnknownFields",
    "string",
    { description: "A field.", type: undefined, "x-kubernetes-preserve-unknown-fields": true },
  ],
  [
    '@validation XValidation rule="self.x > 0" message="must be positive" reason=FieldValueInvalid fieldPath=".x" optionalOldSelf=true messageExpression="\'bad\'"',
    "{ x?: int32 }",
    {
      "x-kubernetes-validations": [
        {
          fieldPath: ".x",
          message: "must be positive",
          messageExpression: "'bad'",
          optionalOldSelf: true,
          reason: "FieldValueInvalid",
          rule: "self.x > 0",
        },
      ],
    },
  ],
  ["@default [a, b]", "string[]", { default: ["a", "b"] }],
  ["@example {a: 1}", "Record<string, int32>", { example: { a: 1 } }],
  ["@title The size", "int32", { title: "The size" }],
  [
    '@externalDocs url="https://example.com/x" description="more"',
    "string",
    { externalDocs: { description: "more", url: "https://example.com/x" } },
  ],
  ["@nullable", "string", { nullable: true }],
  [
    "@immutable",
    "string",
    { "x-kubernetes-validations": [{ message: "field is immutable", rule: "self == oldSelf" }] },
  ],
  ["@listType set", "string[]", { "x-kubernetes-list-type": "set" }],
  ["@mapType atomic", "Record<string, string>", { "x-kubernetes-map-type": "atomic" }],
  ["@structType atomic", "{ a?: string }", { "x-kubernetes-map-type": "atomic" }],
];

/** Item variants: the same markers on an array's items. */
const itemsCases: [string, string, Record<string, unknown>][] = fieldCases
  .filter(([m]) => m.startsWith("@validation ") && !/Schemaless/.test(m))
  .map(([m, type, fragment]) => [
    m.replace("@validation ", "@validation items:"),
    `${type.includes("|") || type.includes("<") ? `Array<${type}>` : `${type}[]`}`,
    { items: fragment },
  ]);

function matches(actual: Record<string, Loose>, fragment: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fragment)) {
    if (value === undefined) expect(actual[key], key).toBeUndefined();
    else if (key === "items") matches(actual.items, value as Record<string, unknown>);
    else expect(actual[key], key).toEqual(value);
  }
}

describe("field markers", () => {
  it.each([...fieldCases, ...itemsCases])("%s on %s", async (marker, type, fragment) => {
    const { spec } = await generate(
      withField(`  /**\n   * A field.\n   * ${marker}\n   */\n  f?: ${type};`),
    );
    matches(spec.properties.f, fragment);
  });

  it("writes boolean validations only when true, and reads {a,b} enums, as controller-gen", async () => {
    const { spec } = await generate(
      withField(
        [
          "  /** @validation Maximum=5\n   * @validation ExclusiveMaximum=false */",
          "  a?: int32;",
          "  /** @validation ExclusiveMinimum=false */",
          "  b?: int32;",
          "  /** @validation UniqueItems=false */",
          "  c?: string[];",
          "  /** @validation Enum={x,y} */",
          "  d?: string;",
          "  /** @kubebuilder:validation:Enum={1,2} */",
          "  e?: int32;",
        ].join("\n"),
      ),
    );
    expect(spec.properties.a).toEqual({ format: "int32", maximum: 5, type: "integer" });
    expect(spec.properties.b).toEqual({ format: "int32", type: "integer" });
    expect(spec.properties.c).toEqual({ items: { type: "string" }, type: "array" });
    expect(spec.properties.d).toEqual({ enum: ["x", "y"], type: "string" });
    expect(spec.properties.e).toEqual({ enum: [1, 2], format: "int32", type: "integer" });
  });

  it("@optional and @required override `?`; @optional on GroupVersion makes fields optional", async () => {
    const { spec } = await generate(
      withField(
        "  /** @optional */\n  a: string;\n  /** @required */\n  b?: string;\n  c: string;",
      ),
    );
    expect(spec.required).toEqual(["b", "c"]);
    const pkg = await generate(
      withField("  a: string;\n  /** @required */\n  b?: string;"),
      '/**\n * @groupName demo.example.com\n * @optional\n */\nexport const GroupVersion = { version: "v1" } as const;\n',
    );
    expect(pkg.spec.required).toEqual(["b"]);
  });

  it("@listMapKey (repeatable) with @listType map", async () => {
    const { spec } = await generate(
      withField(
        "  /**\n   * @listType map\n   * @listMapKey name\n   * @listMapKey port\n   */\n  f?: { name: string; port: int32 }[];",
      ),
    );
    expect(spec.properties.f["x-kubernetes-list-map-keys"]).toEqual(["name", "port"]);
    expect(spec.properties.f["x-kubernetes-list-type"]).toEqual("map");
  });

  it("type-level one-of groups", async () => {
    const types =
      "/**\n * @validation AtMostOneOf=a;b\n * @validation ExactlyOneOf=c;d\n * @validation AtLeastOneOf=e;f\n */\nexport interface G { a?: string; b?: string; c?: string; d?: string; e?: string; f?: string }\n";
    const { spec } = await generate(withField("  g?: G;", types));
    expect(
      spec.properties.g["x-kubernetes-validations"].map((r: { rule: string }) => r.rule),
    ).toEqual([
      "(has(self.a)?1:0)+(has(self.b)?1:0) <= 1",
      "(has(self.c)?1:0)+(has(self.d)?1:0) == 1",
      "has(self.e)||has(self.f)",
    ]);
  });
});

describe("root markers", () => {
  const kindWith = (markers: string) =>
    `export interface S {\n  replicas?: int32;\n}\n/**\n * K is a kind.\n${markers
      .split("\n")
      .map((l) => ` * ${l}`)
      .join(
        "\n",
      )}\n */\nexport interface K {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec?: S;\n}\n`;

  it("@resource, @subresource, @printcolumn, @selectablefield, @metadata, @deprecatedversion", async () => {
    const { crd } = await generate(
      kindWith(
        [
          "@resource scope=Cluster path=kays singular=kay shortName=k1;k2 categories=all",
          "@subresource status",
          "@subresource scale specpath=.spec.replicas statuspath=.status.replicas selectorpath=.status.selector",
          '@printcolumn name=Replicas type=integer jsonPath=".spec.replicas" description="desired" format=int32 priority=1',
          "@selectablefield jsonPath=.spec.replicas",
          '@metadata annotations="a.example.com/x=1";"b.example.com/y=2" labels="team=x"',
          '@deprecatedversion warning="use v2"',
          '@validation XValidation rule="has(self.spec)" message="spec is required"',
        ].join("\n"),
      ),
    );
    expect(crd.metadata).toEqual({
      annotations: {
        "a.example.com/x": "1",
        "b.example.com/y": "2",
        "opgen.dev/version": expect.any(String),
      },
      labels: { team: "x" },
      name: "kays.demo.example.com",
    });
    expect(crd.spec.scope).toBe("Cluster");
    expect(crd.spec.names).toEqual({
      categories: ["all"],
      kind: "K",
      listKind: "KList",
      plural: "kays",
      shortNames: ["k1", "k2"],
      singular: "kay",
    });
    const v = crd.spec.versions[0];
    expect([v.deprecated, v.deprecationWarning]).toEqual([true, "use v2"]);
    expect(v.subresources).toEqual({
      scale: {
        labelSelectorPath: ".status.selector",
        specReplicasPath: ".spec.replicas",
        statusReplicasPath: ".status.replicas",
      },
      status: {},
    });
    expect(v.additionalPrinterColumns).toEqual([
      {
        description: "desired",
        format: "int32",
        jsonPath: ".spec.replicas",
        name: "Replicas",
        priority: 1,
        type: "integer",
      },
    ]);
    expect(v.selectableFields).toEqual([{ jsonPath: ".spec.replicas" }]);
    expect(v.schema.openAPIV3Schema["x-kubernetes-validations"]).toEqual([
      { message: "spec is required", rule: "has(self.spec)" },
    ]);
  });

  it("@storageversion, @unservedversion and @skipversion across versions; @groupName and @versionName", async () => {
    const dir = join(root, `p${n++}`);
    const versions: [string, string, string][] = [
      ["a", "v1", "@resource\n@storageversion"],
      ["b", "v2beta1", "@resource\n@unservedversion"],
      ["c", "v3alpha1", "@resource\n@skipversion"],
    ];
    for (const [folder, version, markers] of versions) {
      mkdirSync(join(dir, "src/api", folder), { recursive: true });
      writeFileSync(
        join(dir, "src/api", folder, "groupversion.ts"),
        `/**\n * @groupName demo.example.com\n * @versionName ${version}\n */\nexport const GroupVersion = {} as const;\n`,
      );
      writeFileSync(
        join(dir, "src/api", folder, "t.types.ts"),
        `import type { int32, ObjectMeta } from "@opgen/runtime";\n${kindWith(markers)}`,
      );
    }
    const r = await generateCrds({ projectDir: dir });
    expect(r.diagnostics).toEqual([]);
    const versionsOut = (r.crds[0]!.object as Loose).spec.versions.map((v: Loose) => [
      v.name,
      v.served,
      v.storage,
    ]);
    expect(versionsOut).toEqual([
      ["v1", true, true],
      ["v2beta1", false, false],
    ]);
  });
});

describe("coverage of the catalogue", () => {
  it("every registered marker is exercised by a test", () => {
    const exercised = new Set<string>();
    for (const [marker] of [...fieldCases, ...itemsCases])
      exercised.add(
        marker
          .slice(1)
          .split(/[= ]/)
          .slice(0, marker.startsWith("@validation") ? 2 : 1)
          .join(" "),
      );
    const self = readFileSync(import.meta.filename, "utf8");
    const tests = [self, ...listTs(join(import.meta.dirname, ".."))].join("\n");
    const missing = markerRegistry()
      .all()
      .filter((d) => !exercised.has(d.name))
      .filter(
        (d) =>
          !new RegExp(
            `@${d.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(" ", "\\s+")}\\b`,
          ).test(tests),
      )
      .map((d) => d.name);
    expect(missing).toEqual([]);
  });
});

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listTs(p));
    else if (e.name.endsWith(".ts")) out.push(readFileSync(p, "utf8"));
  }
  return out;
}
