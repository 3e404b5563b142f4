/**
 * Every error class of the CRD generator, each checked with its file:line:col and message.
 * Each case writes a small API folder and runs the generator on it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import { afterAll, describe, expect, it } from "vitest";
import { generateCrds } from "../../src/generators/crd/index.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";

const root = mkdtempSync(join(tmpdir(), "opgen-crd-errors-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const GV =
  '/** @groupName demo.example.com */\nexport const GroupVersion = { group: "demo.example.com", version: "v1" } as const;\n';

/** Generates from one types file (plus optional extra files) and returns the formatted diagnostics. */
async function diagnose(types: string, extra: Record<string, string> = {}): Promise<string[]> {
  const dir = join(root, `p${n++}`);
  mkdirSync(join(dir, "src/api/v1"), { recursive: true });
  writeFileSync(join(dir, "src/api/v1/groupversion.ts"), GV);
  writeFileSync(join(dir, "src/api/v1/thing.types.ts"), types);
  for (const [name, text] of Object.entries(extra))
    writeFileSync(join(dir, "src/api/v1", name), text);
  const r = await generateCrds({ projectDir: dir });
  return r.diagnostics.map(formatDiagnostic);
}

/** A root kind whose spec has the given members (spec starts on line 3, its members on line 4). */
const kind = (specMembers: string, before = "") =>
  `${before}import type { int32, ObjectMeta } from "@opgen/runtime";\n\nexport interface ThingSpec {\n${specMembers}\n}\n\n/** @resource */\nexport interface Thing {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec: ThingSpec;\n}\n`;

const F = "src/api/v1/thing.types.ts";

/** kube-apiserver's refusal of the CRD things.demo.example.com, said at a marker. */
const KUBE = "kube-apiserver would refuse CustomResourceDefinition things.demo.example.com:";
/** The path of spec field `name` in the CRD's first version. */
const SPEC = (name: string) =>
  `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[${name}]`;
const RE2 =
  "(kube-apiserver compiles patterns with Go's RE2 syntax: no lookarounds or backreferences)";

describe("sources that do not parse", () => {
  it("a syntax error is one error at its position, and the kind is not generated", async () => {
    const dir = join(root, `p${n++}`);
    mkdirSync(join(dir, "src/api/v1"), { recursive: true });
    writeFileSync(join(dir, "src/api/v1/groupversion.ts"), GV);
    // The missing `;`/`}` would otherwise drop the fields after it.
    writeFileSync(
      join(dir, "src/api/v1/thing.types.ts"),
      kind("  size: int32 = ;\n  name?: string;"),
    );
    const r = await generateCrds({ projectDir: dir });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      `${F}:4:17: syntax error: Expression expected; fix the TypeScript source, nothing is generated from a file that does not parse`,
    ]);
    expect(r.files).toEqual([]);
  });

  it("a `*/` inside a marker value is named, with the escape to use", async () => {
    expect(await diagnose(kind("  /** @validation Pattern=`^a*/b$` */\n  path?: string;"))).toEqual(
      [
        `${F}:4:30: \`*/\` ends this JSDoc comment early and the rest of the line is read as code; inside a marker value or description write \`*\\/\` (opgen reads it as \`*/\`)`,
      ],
    );
  });

  it("`*\\/` in a marker value is read as `*/`", async () => {
    const dir = join(root, `p${n++}`);
    mkdirSync(join(dir, "src/api/v1"), { recursive: true });
    writeFileSync(join(dir, "src/api/v1/groupversion.ts"), GV);
    writeFileSync(
      join(dir, "src/api/v1/thing.types.ts"),
      kind(
        "  /**\n   * Paths like a*\\/b.\n   * @validation Pattern=`^a*\\/b$`\n   */\n  path?: string;",
      ),
    );
    const r = await generateCrds({ projectDir: dir });
    expect(r.diagnostics).toEqual([]);
    type Crd = {
      spec: {
        versions: { schema: { openAPIV3Schema: { properties: { spec: JSONSchemaProps } } } }[];
      };
    };
    const spec = (r.crds[0]!.object as unknown as Crd).spec.versions[0]!.schema.openAPIV3Schema
      .properties.spec;
    expect(spec.properties!.path).toEqual({
      description: "Paths like a*/b.",
      pattern: "^a*/b$",
      type: "string",
    });
  });
});

describe("values kube-apiserver would refuse", () => {
  const cases: [string, string, string][] = [
    [
      "a lookahead, which Go's RE2 lacks",
      "  /** @validation Pattern=`^(?=a)b$` */\n  name?: string;",
      `${F}:4:7: @validation Pattern: ${KUBE} ${SPEC("name")}.pattern: Invalid value: "^(?=a)b$": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\` ${RE2}`,
    ],
    [
      "a backreference",
      "  /** @validation Pattern=`(a)\\1` */\n  name?: string;",
      `${F}:4:7: @validation Pattern: ${KUBE} ${SPEC("name")}.pattern: Invalid value: "(a)\\\\1": must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: \`\\1\` ${RE2}`,
    ],
    [
      "a negative length",
      "  /** @validation MaxLength=-1 */\n  name?: string;",
      `${F}:4:7: @validation MaxLength=-1: must not be negative`,
    ],
    [
      "a MultipleOf that is not positive",
      "  /** @validation MultipleOf=0 */\n  size?: int32;",
      `${F}:4:7: @validation MultipleOf=0: must be positive; kube-apiserver would refuse every value of field "spec.size" ("factor MultipleOf declared for spec.size must be positive: 0")`,
    ],
    [
      "a minimum above the maximum",
      "  /**\n   * @validation Minimum=5\n   * @validation Maximum=3\n   */\n  size?: int32;",
      `${F}:6:6: @validation Minimum=5 is greater than @validation Maximum=3 on field "spec.size"; nothing could be valid`,
    ],
    [
      "MinItems above MaxItems on items' own markers",
      "  /**\n   * @validation MinItems=3\n   * @validation MaxItems=1\n   */\n  list?: string[];",
      `${F}:6:6: @validation MinItems=3 is greater than @validation MaxItems=1 on field "spec.list"; nothing could be valid`,
    ],
    [
      "a default of the wrong type",
      "  /** @default abc */\n  size?: int32;",
      `${F}:4:7: @default "abc" is not valid for field "spec.size", and kube-apiserver would refuse the CRD: default: Invalid value: "string": default in body must be of type integer: "string"`,
    ],
    [
      "a default outside the enum",
      "  /**\n   * @validation Enum=a;b\n   * @default c\n   */\n  mode?: string;",
      `${F}:6:6: @default "c" is not valid for field "spec.mode", and kube-apiserver would refuse the CRD: default: Unsupported value: "c": supported values: "a", "b"`,
    ],
    [
      "a default longer than MaxLength",
      "  /**\n   * @validation MaxLength=2\n   * @default abc\n   */\n  code?: string;",
      `${F}:6:6: @default "abc" is not valid for field "spec.code", and kube-apiserver would refuse the CRD: default: Too long: may not be more than 2 bytes`,
    ],
  ];
  it.each(cases)("%s", async (_what, member, message) => {
    expect(await diagnose(kind(member))).toEqual([message]);
  });

  it("a CEL rule or message expression that does not compile, typed against the schema", async () => {
    const rule = (r: string, m = "") =>
      `apiextensions.ValidationRule{Rule:${JSON.stringify(r)}, Message:"", MessageExpression:${JSON.stringify(m)}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;
    expect(
      await diagnose(kind('  /** @validation XValidation rule="self <=" */\n  size?: int32;')),
    ).toEqual([
      `${F}:4:7: @validation XValidation: ${KUBE} ${SPEC("size")}.x-kubernetes-validations[0].rule: Invalid value: ${rule("self <=")}: compilation failed: ERROR: <input>:1:8: Syntax error: Unexpected token: EOF`,
    ]);
    expect(
      await diagnose(
        kind(
          '  /** @validation XValidation rule="self > 0" messageExpression="\'got \' + string(self" */\n  size?: int32;',
        ),
      ),
    ).toEqual([
      `${F}:4:7: @validation XValidation: ${KUBE} ${SPEC("size")}.x-kubernetes-validations[0].messageExpression: Invalid value: ${rule("self > 0", "'got ' + string(self")}: messageExpression compilation failed: ERROR: <input>:1:21: Syntax error: Expected RPAREN, got EOF`,
    ]);
    // Compiled with self typed by the schema: an int compared with a string, as kube refuses it.
    expect(
      await diagnose(
        kind("  /** @validation XValidation rule=\"self == 'x'\" */\n  size?: int32;"),
      ),
    ).toEqual([
      `${F}:4:7: @validation XValidation: ${KUBE} ${SPEC("size")}.x-kubernetes-validations[0].rule: Invalid value: ${rule("self == 'x'")}: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, string)'`,
    ]);
  });

  it("a CEL rule kube-apiserver refuses for its estimated cost, until its data is bounded", async () => {
    const rule = "self.all(x, x.matches('^[a-z]+$'))";
    const unbounded = kind(`  /** @validation XValidation rule="${rule}" */\n  tags?: string[];`);
    const advice =
      "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    // The rule once at its marker (not again as part of the total), the total at the kind.
    const refused = [
      `${F}:4:7: @validation XValidation: ${KUBE} ${SPEC("tags")}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${advice}`,
      `${F}:9:18: kind Thing: ${KUBE} spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${advice}`,
    ];
    // Refused on every run: a failing schema is never remembered.
    for (let run = 0; run < 2; run++) expect(await diagnose(unbounded)).toEqual(refused);
    const bounded = kind(
      `  /**\n   * @validation XValidation rule="${rule}"\n   * @validation MaxItems=10\n   * @validation items:MaxLength=64\n   */\n  tags?: string[];`,
    );
    expect(await diagnose(bounded)).toEqual([]);
  });

  it("CEL rules each within kube-apiserver's cost limit whose total is over the CRD's", async () => {
    // On a string of up to 2,000,000 characters (8,000,000 bytes as kube counts them) a regex
    // of 4k characters costs 1 + 800,001 x k: k = 12, 11, 10, 9, then eleven of k = 8 total
    // 104,000,145, each under 10,000,000.
    const re = (k: number) => `^${"a".repeat(4 * k - 2)}$`;
    const rules = [12, 11, 10, 9, ...Array(11).fill(8)]
      .map((k) => `   * @validation XValidation rule="self.matches('${re(k)}')"`)
      .join("\n");
    const member = `  /**\n${rules}\n   * @validation MaxLength=2000000\n   */\n  name?: string;`;
    // The four biggest contributors are named, each at its marker (lines 5 to 8), and the total
    // at the kind.
    expect(await diagnose(kind(member))).toEqual([
      ...[0, 1, 2, 3].map(
        (i) =>
          `${F}:${5 + i}:6: @validation XValidation: ${KUBE} ${SPEC("name")}.x-kubernetes-validations[${i}].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`,
      ),
      `${F}:26:18: kind Thing: ${KUBE} spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.040001x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
  });

  it("remembers only CRDs that passed: a failing one is reported on every run", async () => {
    const ok = kind("  /** @validation Pattern=`^[a-z]{2,3}$` */\n  code?: string;");
    expect(await diagnose(ok)).toEqual([]);
    expect(await diagnose(ok)).toEqual([]);
    const bad = kind("  /** @validation Pattern=`^[a-z]{2,3}(?=x)$` */\n  code?: string;");
    for (let run = 0; run < 2; run++) {
      expect(await diagnose(bad)).toEqual([
        `${F}:4:7: @validation Pattern: ${KUBE} ${SPEC("code")}.pattern: Invalid value: "^[a-z]{2,3}(?=x)$": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\` ${RE2}`,
      ]);
    }
  });

  it("accepts values kube-apiserver accepts", async () => {
    expect(
      await diagnose(
        kind(
          "  /**\n   * @validation Pattern=`^[a-z]([-a-z0-9]*[a-z0-9])?$`\n   * @validation MaxLength=63\n   * @default abc\n   */\n  name?: string;\n  /**\n   * @validation Minimum=1\n   * @validation Maximum=1\n   * @default 1\n   */\n  size?: int32;",
        ),
      ),
    ).toEqual([]);
  });
});

describe("names kube-apiserver would refuse, and collisions", () => {
  /** Generates from several files under src/api (paths relative to it) and PROJECT, if given. */
  async function diagnoseTree(files: Record<string, string>, project?: string): Promise<string[]> {
    const dir = join(root, `p${n++}`);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, "src/api", path, ".."), { recursive: true });
      writeFileSync(join(dir, "src/api", path), text);
    }
    if (project) writeFileSync(join(dir, "PROJECT"), project);
    const r = await generateCrds({ projectDir: dir });
    return r.diagnostics.map(formatDiagnostic);
  }
  const root_ = (name: string, resource = "@resource") =>
    `import type { ObjectMeta } from "@opgen/runtime";\n/** ${resource} */\nexport interface ${name} {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n}\n`;
  const gv = (group: string, version = "v1") =>
    `/** @groupName ${group} */\nexport const GroupVersion = { version: "${version}" } as const;\n`;

  it.each([
    [
      "WidgetList",
      'kind WidgetList: a name ending in "List" is the list kind of Widget in every API group; rename the kind',
    ],
    [
      "Status",
      "kind Status: Kubernetes registers Status in every API group version; rename the kind",
    ],
    [
      "DeleteOptions",
      "kind DeleteOptions: Kubernetes registers DeleteOptions in every API group version; rename the kind",
    ],
  ])("the reserved kind %s", async (name, message) => {
    expect(
      await diagnoseTree({
        "v1/groupversion.ts": gv("demo.example.com"),
        "v1/t.types.ts": root_(name),
      }),
    ).toEqual([`src/api/v1/t.types.ts:3:18: ${message}`]);
  });

  it("a version that is not a DNS-1035 label", async () => {
    expect(
      await diagnoseTree({
        "v1/groupversion.ts": gv("demo.example.com", "V1"),
        "v1/t.types.ts": root_("Widget"),
      }),
    ).toEqual([
      "src/api/v1/groupversion.ts:2:40: version \"V1\" must be a DNS-1035 label such as v1 or v1beta1: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it("a group without a dot, and one that is not a DNS-1123 subdomain", async () => {
    expect(
      await diagnoseTree({ "v1/groupversion.ts": gv("demo"), "v1/t.types.ts": root_("Widget") }),
    ).toEqual([
      'src/api/v1/groupversion.ts:1:5: group "demo" should be a domain with at least one dot, as kube-apiserver requires (e.g. demo.example.com)',
    ]);
    const [message] = await diagnoseTree({
      "v1/groupversion.ts": gv("Demo.example.com"),
      "v1/t.types.ts": root_("Widget"),
    });
    expect(message).toMatch(
      /^src\/api\/v1\/groupversion.ts:1:5: group "Demo.example.com" must be a DNS-1123 subdomain: a lowercase RFC 1123 subdomain/,
    );
  });

  it("a group or version error is said once, at its declaration, however many kinds the folder holds", async () => {
    expect(
      await diagnoseTree({
        "v1/groupversion.ts": gv("demo"),
        "v1/a.types.ts": root_("Widget"),
        "v1/b.types.ts": root_("Gadget"),
      }),
    ).toEqual([
      'src/api/v1/groupversion.ts:1:5: group "demo" should be a domain with at least one dot, as kube-apiserver requires (e.g. demo.example.com)',
    ]);
    // Declared in the GroupVersion literal: the literal is the place.
    expect(
      await diagnoseTree({
        "v1/groupversion.ts":
          'export const GroupVersion = { group: "demo", version: "v1" } as const;\n',
        "v1/a.types.ts": root_("Widget"),
      }),
    ).toEqual([
      'src/api/v1/groupversion.ts:1:38: group "demo" should be a domain with at least one dot, as kube-apiserver requires (e.g. demo.example.com)',
    ]);
  });

  it("a version taken from the folder's name is reported at GroupVersion, saying so", async () => {
    const [message] = await diagnoseTree({
      "V1/groupversion.ts":
        "/** @groupName demo.example.com */\nexport const GroupVersion = {} as const;\n",
      "V1/a.types.ts": root_("Widget"),
    });
    expect(message).toMatch(
      /^src\/api\/V1\/groupversion.ts:2:14: version "V1" \(the folder's name: no @versionName is given\) must be a DNS-1035 label such as v1 or v1beta1: /,
    );
  });

  it("a GroupVersion without a group is reported at groupversion.ts, once", async () => {
    expect(
      await diagnoseTree({
        "v1/groupversion.ts": 'export const GroupVersion = { version: "v1" } as const;\n',
        "v1/a.types.ts": root_("Widget"),
        "v1/b.types.ts": root_("Gadget"),
      }),
    ).toEqual([
      'src/api/v1/groupversion.ts:1:14: no API group: export a GroupVersion with @groupName <group>.<domain> in its JSDoc (or { group: "..." }) for the kinds of this folder',
    ]);
  });

  it("a plural or short name that is not a lowercase DNS-1123 label", async () => {
    const [message] = await diagnoseTree({
      "v1/groupversion.ts": gv("demo.example.com"),
      "v1/t.types.ts": root_("Widget", "@resource path=Widgets shortName=w_1"),
    });
    expect(message).toMatch(
      /^src\/api\/v1\/t.types.ts:3:18: kind Widget: plural "Widgets" must be a lowercase DNS-1123 label/,
    );
  });

  it("two kinds that would be one CRD", async () => {
    expect(
      await diagnoseTree({
        "v1/groupversion.ts": gv("demo.example.com"),
        "v1/a.types.ts": root_("Policy"),
        "v1/b.types.ts": root_("Rule", "@resource path=policies"),
      }),
    ).toEqual([
      "src/api/v1/b.types.ts:3:18: kind Rule: its CRD would be policies.demo.example.com, the CRD of kind Policy (src/api/v1/a.types.ts:3); give one of them another @resource path=",
    ]);
  });

  it("a second API group in a single-group project, with the way to make it multi-group", async () => {
    const project = 'domain: example.com\nprojectName: demo\nversion: "3"\n';
    const files = {
      "v1/groupversion.ts": gv("apps.example.com"),
      "v1/a.types.ts": root_("Widget"),
      "v1beta1/groupversion.ts": gv("batch.example.com", "v1beta1"),
      "v1beta1/b.types.ts": root_("Gadget"),
    };
    const [message, ...rest] = await diagnoseTree(files, project);
    expect(rest).toEqual([]);
    expect(message).toMatch(
      /^src\/api\/v1beta1\/b.types.ts:3:18: kind Gadget: group batch.example.com is a second API group, but this project is single-group .*multigroup: true/,
    );
    expect(await diagnoseTree(files, `${project}multigroup: true\n`)).toEqual([]);
  });
});

describe("printer columns kube-apiserver would refuse, or could not print", () => {
  const withColumn = (column: string) =>
    kind("  size?: int32;").replace("/** @resource */", `/**\n * @resource\n * ${column}\n */`);
  it.each([
    [
      'name=Size type=integer jsonPath="spec.size"',
      `@printcolumn: ${KUBE} spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .`,
    ],
    [
      'name=Size type=integer jsonPath=".spec.items[0"',
      '@printcolumn "Size": jsonPath ".spec.items[0" does not parse: unclosed [ in .spec.items[0',
    ],
    [
      "name=Size type=integer jsonPath=.spec.size format=integer",
      `@printcolumn: ${KUBE} spec.versions[0].additionalPrinterColumns[0].format: Invalid value: "integer": must be one of byte,date,date-time,double,float,int32,int64,password`,
    ],
    [
      "name=Size type=integer jsonPath=.spec.size priority=-1",
      '@printcolumn "Size": priority -1 must not be negative (0 is the standard view, higher only with -o wide)',
    ],
  ])("%s", async (column, message) => {
    expect(await diagnose(withColumn(`@printcolumn ${column}`))).toEqual([`${F}:9:4: ${message}`]);
  });

  it("a scale path outside .spec, in kube-apiserver's words", async () => {
    const scaled = kind("  size?: int32;").replace(
      "/** @resource */",
      "/**\n * @resource\n * @subresource scale specpath=.status.size statuspath=.status.size\n */",
    );
    expect(await diagnose(scaled)).toEqual([
      `${F}:9:4: @subresource scale: ${KUBE} spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.size": should be a json path under .spec`,
    ]);
  });

  it("the only version unserved: the versions are not printed whole", async () => {
    const unserved = kind("  size?: int32;").replace(
      "/** @resource */",
      "/**\n * @resource\n * @unservedversion\n */",
    );
    expect(await diagnose(unserved)).toEqual([
      `${F}:8:4: @resource: ${KUBE} spec.versions: Invalid value: {…}: must have at least one version marked as served`,
    ]);
  });

  it("an unknown column type, in kube-apiserver's words", async () => {
    expect(
      await diagnose(withColumn("@printcolumn name=Size type=int jsonPath=.spec.size")),
    ).toEqual([
      `${F}:9:4: @printcolumn: ${KUBE} spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "int": must be one of boolean,date,integer,number,string`,
    ]);
  });
});

describe("marker errors", () => {
  it("unknown marker, with a suggestion", async () => {
    expect(await diagnose(kind("  /** @validaton Minimum=1 */\n  size: int32;"))).toEqual([
      `${F}:4:7: unknown marker @validaton; did you mean @validation?`,
    ]);
  });

  it("unknown argument, with a suggestion", async () => {
    expect(
      await diagnose(
        kind("  size: int32;").replace("/** @resource */", "/** @resource scop=Cluster */"),
      ),
    ).toEqual([`${F}:7:15: @resource: unknown argument "scop"; did you mean "scope"?`]);
  });

  it("missing argument", async () => {
    expect(
      await diagnose(
        kind("  size: int32;").replace(
          "/** @resource */",
          "/**\n * @resource\n * @printcolumn name=Size type=integer\n */",
        ),
      ),
    ).toEqual([`${F}:9:4: @printcolumn: missing argument "jsonPath" (a string)`]);
  });

  it("wrong value type", async () => {
    expect(await diagnose(kind("  /** @validation Maximum=ten */\n  size: int32;"))).toEqual([
      `${F}:4:27: @validation Maximum: expected a number, got "ten"`,
    ]);
  });

  it("marker on the wrong target", async () => {
    expect(await diagnose(kind("  /** @storageversion */\n  size: int32;"))).toEqual([
      `${F}:4:7: @storageversion cannot stand on a field; it belongs on a root type (@resource)`,
    ]);
  });

  it("marker on the wrong type: MaxLength on an integer", async () => {
    expect(await diagnose(kind("  /** @validation MaxLength=3 */\n  size: int32;"))).toEqual([
      `${F}:4:7: @validation MaxLength needs a string, but field "spec.size" is of type integer`,
    ]);
  });

  it("marker on the wrong type: items:Pattern on a non-array", async () => {
    expect(
      await diagnose(kind("  /** @validation items:Pattern=`^a$` */\n  name: string;")),
    ).toEqual([
      `${F}:4:7: @validation items:Pattern needs an array, but field "spec.name" is of type string`,
    ]);
  });

  it("listMapKey without listType=map", async () => {
    expect(
      await diagnose(
        kind(
          "  /**\n   * @listType set\n   * @listMapKey name\n   */\n  items: { name: string }[];",
        ),
      ),
    ).toEqual([`${F}:6:6: @listMapKey needs @listType map on field "spec.items"`]);
  });

  it("listMapKey naming a field the items do not have", async () => {
    expect(
      await diagnose(
        kind("  /**\n   * @listType map\n   * @listMapKey id\n   */\n  items: { name: string }[];"),
      ),
    ).toEqual([`${F}:6:6: @listMapKey id: the items of field "spec.items" have no field "id"`]);
  });

  it("one-of group naming a required field", async () => {
    const types = kind("  a: string;\n  b?: string;").replace(
      "export interface ThingSpec",
      "/** @validation AtMostOneOf=a;b */\nexport interface ThingSpec",
    );
    expect(await diagnose(types)).toEqual([
      `${F}:3:5: @validation AtMostOneOf: field "a" of type ThingSpec is required; fields of a one-of group must be optional`,
    ]);
  });
});

describe("unsupported TypeScript types name the field path", () => {
  it("functions", async () => {
    expect(await diagnose(kind("  onChange: () => void;"))).toEqual([
      `${F}:4:13: field "spec.onChange": function type () => void is not supported in a Kubernetes API type`,
    ]);
  });

  it("methods", async () => {
    expect(await diagnose(kind("  size: int32;\n  grow(): void;"))).toEqual([
      `${F}:5:3: field "spec.grow": methods are not supported in a Kubernetes API type`,
    ]);
  });

  it("symbols", async () => {
    expect(await diagnose(kind("  id: symbol;"))).toEqual([
      `${F}:4:7: field "spec.id": symbol is not supported in a Kubernetes API type`,
    ]);
  });

  it("tuples", async () => {
    expect(await diagnose(kind("  pair: [string, int32];"))).toEqual([
      `${F}:4:9: field "spec.pair": tuple type [string, int32] is not supported; use an array or an object`,
    ]);
  });

  it("unions of non-literals", async () => {
    expect(await diagnose(kind("  value: string | int32;"))).toEqual([
      `${F}:4:10: field "spec.value": union type string | int32 is not supported; only unions of string literals (an enum) and T | null are`,
    ]);
  });

  it("recursive types", async () => {
    const types = kind("  tree: Node;").replace(
      "export interface ThingSpec",
      "export interface Node {\n  children?: Node[];\n}\n\nexport interface ThingSpec",
    );
    expect(await diagnose(types)).toEqual([
      `${F}:4:14: field "spec.tree.children[]": recursive type Node is not supported (a CRD schema cannot refer to itself)`,
    ]);
  });

  it("Date and types it cannot find", async () => {
    expect(await diagnose(kind("  at: Date;\n  other: Missing;"))).toEqual([
      `${F}:4:7: field "spec.at": Date is not supported; use Time from @opgen/runtime (an RFC 3339 string)`,
      `${F}:5:10: field "spec.other": cannot find type Missing`,
    ]);
  });

  it("unknown is a warning, silenced by XPreserveUnknownFields", async () => {
    expect(
      await diagnose(
        kind("  free: unknown;\n  /** @validation XPreserveUnknownFields */\n  kept: unknown;"),
      ),
    ).toEqual([
      `${F}:4:9: warning: field "spec.free" has type unknown: any value is kept (x-kubernetes-preserve-unknown-fields); say @validation XPreserveUnknownFields to confirm`,
    ]);
  });

  it("Go-style marker comments are a warning saying how to write them", async () => {
    expect(await diagnose(kind("  // +kubebuilder:validation:Minimum=1\n  size: int32;"))).toEqual([
      `${F}:4:6: warning: Go-style marker comment "+kubebuilder:validation:Minimum=1" is ignored; write it in the JSDoc comment as @kubebuilder:validation:Minimum=1`,
    ]);
  });

  it("all errors of a run are reported together, in file order", async () => {
    const d = await diagnose(
      kind(
        "  /** @validation MaxLength=3 */\n  size: int32;\n  pair: [string, string];\n  /** @bogus */\n  x: string;",
      ),
    );
    expect(d.map((l) => l.split(": ")[0])).toEqual([`${F}:4:7`, `${F}:6:9`, `${F}:7:7`]);
  });
});

describe("kinds and versions", () => {
  it("a kind without groupversion.ts", async () => {
    const dir = join(root, `p${n++}`);
    mkdirSync(join(dir, "src/api/v1"), { recursive: true });
    writeFileSync(join(dir, "src/api/v1/thing.types.ts"), kind("  size: int32;"));
    const r = await generateCrds({ projectDir: dir });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      `${F}:8:18: kind Thing: no groupversion.ts in its folder, so its API group is unknown`,
    ]);
  });

  it("several versions without exactly one @storageversion", async () => {
    const dir = join(root, `p${n++}`);
    for (const v of ["v1", "v2"]) {
      mkdirSync(join(dir, `src/api/${v}`), { recursive: true });
      writeFileSync(join(dir, `src/api/${v}/groupversion.ts`), GV.replace('"v1"', `"${v}"`));
      writeFileSync(join(dir, `src/api/${v}/thing.types.ts`), kind("  size: int32;"));
    }
    const r = await generateCrds({ projectDir: dir });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      `${F}:8:18: kind Thing has 2 versions (v1, v2) but none is marked @storageversion; add it to the JSDoc of the version the API server should store`,
    ]);
    expect(r.files).toEqual([]);
  });
});
