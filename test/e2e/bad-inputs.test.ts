/**
 * Issue 13's promise, as a user meets it: every bad input to `opgen manifests` (and to the
 * scaffold's `init` and `create api`) is refused by the real CLI with exit code 1, one line per
 * problem (`path:line:col: message` for a source, then the run's summary), and a project tree
 * exactly as it was: nothing written, nothing removed. Each case starts from a small valid
 * project, changes one thing, and runs the built CLI.
 */
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, runCli, snapshot } from "../helpers/cli.js";

const root = mkdtempSync(join(tmpdir(), "opgen-bad-inputs-"));
afterAll(() => {
  writable(root);
  rmSync(root, { recursive: true, force: true });
});
/** Gives back write permission to the folders a case took it from, so they can be removed. */
function writable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) writable(join(dir, entry.name));
}
/** root ignores file permissions: the permission cases run as any other user (as in CI). */
const isRoot = process.getuid?.() === 0;

const HEAD = 'import type { int32, ObjectMeta } from "@opgen/runtime";\n';
/** A root kind; its spec's members start on line 4 of the file. */
const kind = (members: string, { name = "Thing", resource = "@resource", before = "" } = {}) =>
  `${HEAD}${before}\nexport interface ${name}Spec {\n${members}\n}\n\n/** ${resource} */\nexport interface ${name} {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec?: ${name}Spec;\n}\n`;
/** One spec field with a JSDoc marker, on lines 4 and 5. */
const field = (marker: string, type: string) => kind(`  /** ${marker} */\n  f?: ${type};`);
const gv = (group = "demo.example.com", version = "v1") =>
  `/** @groupName ${group} */\nexport const GroupVersion = { version: "${version}" } as const;\n`;
const controller = (markers: string, body = "export class ThingReconciler {}\n") =>
  `/**\n${markers
    .split("\n")
    .map((m) => ` * ${m}`)
    .join("\n")}\n */\n${body}`;

const TYPES = "src/api/v1/thing.types.ts";
const CONTROLLER = "src/controllers/thing.controller.ts";
const GROUP_VERSION = "src/api/v1/groupversion.ts";

let base: string;
beforeAll(() => {
  base = join(root, "base");
  mkdirSync(join(base, "src/api/v1"), { recursive: true });
  mkdirSync(join(base, "src/controllers"), { recursive: true });
  writeFileSync(join(base, "PROJECT"), 'domain: example.com\nprojectName: demo\nversion: "3"\n');
  writeFileSync(join(base, "src/api/v1/groupversion.ts"), gv());
  writeFileSync(join(base, TYPES), kind("  size?: int32;"));
  writeFileSync(
    join(base, CONTROLLER),
    controller("@rbac groups=demo.example.com,resources=things,verbs=get;list;watch"),
  );
});

interface Case {
  /** Files to write (null removes), relative to the project. */
  files?: Record<string, string | null>;
  /** Extra setup on the project folder (links, odd files). */
  setup?: (dir: string) => void;
  args?: string[];
  /** Each expected stderr line, as a regular expression source (anchored). */
  lines: string[];
}

let n = 0;
async function refuse(c: Case): Promise<void> {
  const dir = join(root, `case-${n++}`);
  cpSync(base, dir, { recursive: true });
  for (const [path, text] of Object.entries(c.files ?? {})) {
    if (text === null) rmSync(join(dir, path), { recursive: true, force: true });
    else {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }
  c.setup?.(dir);
  const before = snapshot(dir);
  const r = await runCli(c.args ?? ["manifests"], dir);
  const lines = r.stderr.trim().split("\n");
  expect({ exitCode: r.exitCode, stdout: r.stdout, lines: lines.length }, r.stderr).toEqual({
    exitCode: 1,
    stdout: "",
    lines: c.lines.length,
  });
  for (const [i, re] of c.lines.entries())
    expect(lines[i], r.stderr).toMatch(new RegExp(`^${re}$`));
  expect(snapshot(dir)).toEqual(before);
}

const at = (file: string, line: number, col: number, message: string) =>
  `${file.replaceAll(".", "\\.")}:${line}:${col}: ${message}`;
const summary = (errors = 1) =>
  `opgen: manifests: ${errors} error${errors === 1 ? "" : "s"}; nothing was written`;
/** kube-apiserver's refusal of the CRD things.demo.example.com, as a pattern. */
const KUBE = "kube-apiserver would refuse CustomResourceDefinition things\\.demo\\.example\\.com: ";
/** A pattern kube's CRD validation refuses: its line, up to Go's regexp error. */
const badPattern = (marker: string, error: string) =>
  `@validation ${marker}: ${KUBE}.*\\.pattern: Invalid value: .*: must be a valid regular expression, but isn't: error parsing regexp: ${error} \\(kube-apiserver compiles patterns with Go's RE2 syntax: .*\\)`;
const source = (message: string, line = 4, col = 7, file = TYPES) => [
  at(file, line, col, message),
  summary(),
];

const cases: [string, Case][] = [
  // ---- sources that do not parse
  [
    "a syntax error in an API type",
    {
      files: { [TYPES]: kind("  size: int32 = ;") },
      lines: source("syntax error: Expression expected; fix the TypeScript source.*", 4, 17),
    },
  ],
  [
    "an interface left open",
    {
      files: { [TYPES]: `${HEAD}export interface ThingSpec {\n  size?: int32;\n` },
      lines: source("syntax error: '}' expected; .*", 4, 1),
    },
  ],
  [
    "a star-slash in a pattern",
    {
      files: { [TYPES]: field("@validation Pattern=`^a*/b$`", "string") },
      lines: source("`\\*/` ends this JSDoc comment early .*write `\\*\\\\/`.*", 4, 30),
    },
  ],
  [
    "a syntax error in a controller",
    {
      files: { [CONTROLLER]: "export class R {\n  run( {\n}\n" },
      lines: source(
        "syntax error: '\\)' expected; fix the TypeScript source, nothing is generated from a file that does not parse",
        4,
        1,
        CONTROLLER,
      ),
    },
  ],
  // ---- the marker grammar
  [
    "an unknown marker",
    {
      files: { [TYPES]: field("@validaton Minimum=1", "int32") },
      lines: source("unknown marker @validaton; did you mean @validation\\?"),
    },
  ],
  [
    "an unknown validation",
    {
      files: { [TYPES]: field("@validation Minimun=1", "int32") },
      lines: source("unknown marker @validation Minimun; did you mean @validation Minimum\\?"),
    },
  ],
  [
    "an unknown controller-gen marker",
    {
      files: { [TYPES]: field("@kubebuilder:validation:Maximun=1", "int32") },
      lines: source(
        "unknown marker @kubebuilder:validation:Maximun=1.*|unknown marker @kubebuilder:validation:Maximun; did you mean .*",
      ),
    },
  ],
  [
    "an unknown argument",
    {
      files: { [TYPES]: kind("  size?: int32;", { resource: "@resource scop=Cluster" }) },
      lines: source('@resource: unknown argument "scop"; did you mean "scope"\\?', 7, 15),
    },
  ],
  [
    "a missing argument",
    {
      files: {
        [TYPES]: kind("  size?: int32;", {
          resource: "@resource\n * @printcolumn name=Size type=integer",
        }),
      },
      lines: source('@printcolumn: missing argument "jsonPath".*', 8, 4),
    },
  ],
  [
    "a value of the wrong type",
    {
      files: { [TYPES]: field("@validation Minimum=abc", "int32") },
      lines: source('@validation Minimum: expected a number, got "abc"', 4, 27),
    },
  ],
  [
    "a value outside its choices",
    {
      files: { [TYPES]: kind("  size?: int32;", { resource: "@resource scope=Global" }) },
      lines: source(
        '@resource: argument "scope": expected one of Namespaced, Cluster, got "Global"',
        7,
        21,
      ),
    },
  ],
  [
    "a marker on the wrong target",
    {
      files: { [TYPES]: field("@resource", "int32") },
      lines: source("@resource cannot stand on a field; .*"),
    },
  ],
  [
    "a marker given twice",
    {
      files: {
        [TYPES]: kind(
          "  /**\n   * @validation Minimum=1\n   * @validation Minimum=2\n   */\n  f?: int32;",
        ),
      },
      lines: source(
        "@validation Minimum is given more than once, with different values \\(line 5\\)",
        6,
        6,
      ),
    },
  ],
  [
    "text after a flag marker",
    {
      files: { [TYPES]: field("@nullable yes", "string") },
      lines: source('@nullable takes no arguments, got "yes"', 4, 17),
    },
  ],
  [
    "an unbalanced brace",
    {
      files: { [TYPES]: field("@validation Enum={a,b", "string") },
      lines: source("@validation Enum: unbalanced braces in .*", 4, 24),
    },
  ],
  [
    "an unterminated quote",
    {
      files: { [TYPES]: kind("  size?: int32;", { resource: '@resource shortName="th' }) },
      lines: source('@resource: unterminated " quote', 7, 25),
    },
  ],
  [
    "a validation that does not fit the type",
    {
      files: { [TYPES]: field("@validation MaxLength=3", "int32") },
      lines: source('@validation MaxLength needs a string, but field "spec.f" is of type integer'),
    },
  ],
  [
    "a list-map key without a map list",
    {
      files: { [TYPES]: field("@listMapKey name", "{ name: string }[]") },
      lines: source("@listMapKey .*"),
    },
  ],
  [
    "@rbac without verbs",
    {
      files: { [CONTROLLER]: controller("@rbac groups=apps,resources=deployments") },
      lines: source('@rbac: missing argument "verbs".*', 2, 4, CONTROLLER),
    },
  ],
  [
    "@rbac with an unknown argument",
    {
      files: { [CONTROLLER]: controller("@rbac groups=apps,resource=deployments,verbs=get") },
      lines: source(
        '@rbac: unknown argument "resource"; did you mean "resources"\\?',
        2,
        22,
        CONTROLLER,
      ),
    },
  ],
  // ---- values kube-apiserver would refuse
  [
    "a lookahead",
    {
      files: { [TYPES]: field("@validation Pattern=`^(?=a)b$`", "string") },
      lines: source(badPattern("Pattern", "invalid or unsupported Perl syntax: `\\(\\?=`")),
    },
  ],
  [
    "a lookbehind",
    {
      files: { [TYPES]: field("@validation Pattern=`(?<=a)b`", "string") },
      lines: source(badPattern("Pattern", "invalid named capture: `\\(\\?<=a\\)b`")),
    },
  ],
  [
    "a backreference",
    {
      files: { [TYPES]: field("@validation Pattern=`(a)\\1`", "string") },
      lines: source(badPattern("Pattern", "invalid escape sequence: `\\\\1`")),
    },
  ],
  [
    "a repeat count over 1000",
    {
      files: { [TYPES]: field("@validation Pattern=`a{1001}`", "string") },
      lines: source(badPattern("Pattern", "invalid repeat count: `\\{1001\\}`")),
    },
  ],
  [
    "an items pattern with a lookahead",
    {
      files: { [TYPES]: field("@validation items:Pattern=`(?!a)`", "string[]") },
      lines: source(badPattern("items:Pattern", ".*")),
    },
  ],
  ...(["MinLength", "MaxLength"] as const).map((m): [string, Case] => [
    `a negative ${m}`,
    {
      files: { [TYPES]: field(`@validation ${m}=-1`, "string") },
      lines: source(`@validation ${m}=-1: must not be negative`),
    },
  ]),
  ...(["MinItems", "MaxItems"] as const).map((m): [string, Case] => [
    `a negative ${m}`,
    {
      files: { [TYPES]: field(`@validation ${m}=-2`, "string[]") },
      lines: source(`@validation ${m}=-2: must not be negative`),
    },
  ]),
  ...(["MinProperties", "MaxProperties"] as const).map((m): [string, Case] => [
    `a negative ${m}`,
    {
      files: { [TYPES]: field(`@validation ${m}=-3`, "Record<string, string>") },
      lines: source(`@validation ${m}=-3: must not be negative`),
    },
  ]),
  ...(
    [
      ["Minimum", "Maximum", "int32", 5, 3],
      ["MinLength", "MaxLength", "string", 4, 2],
      ["MinItems", "MaxItems", "string[]", 3, 1],
      ["MinProperties", "MaxProperties", "Record<string, string>", 2, 1],
    ] as const
  ).map(([lo, hi, type, a, b]): [string, Case] => [
    `${lo} above ${hi}`,
    {
      files: {
        [TYPES]: kind(
          `  /**\n   * @validation ${lo}=${a}\n   * @validation ${hi}=${b}\n   */\n  f?: ${type};`,
        ),
      },
      lines: source(
        `@validation ${lo}=${a} is greater than @validation ${hi}=${b} on field "spec.f"; nothing could be valid`,
        6,
        6,
      ),
    },
  ]),
  ...(
    [
      [
        "MultipleOf=0",
        "number",
        'field "spec\\.f" \\("factor MultipleOf declared for spec\\.f must be positive: 0"\\)',
      ],
      [
        "MultipleOf=-5",
        "int32",
        'field "spec\\.f" \\("factor MultipleOf declared for spec\\.f must be positive: -5"\\)',
      ],
      ["items:MultipleOf=0", "int32[]", 'the items of field "spec\\.f"'],
    ] as const
  ).map(([marker, type, subject]): [string, Case] => [
    `@validation ${marker}`,
    {
      files: { [TYPES]: field(`@validation ${marker}`, type) },
      lines: source(
        `@validation ${marker}: must be positive; kube-apiserver would refuse every value of ${subject}`,
      ),
    },
  ]),
  [
    "a comma-separated Enum, with --strict",
    {
      files: { [TYPES]: field("@validation Enum=Phone,Address,Name", "string") },
      args: ["manifests", "--strict"],
      lines: [
        at(
          TYPES,
          4,
          24,
          'warning: @validation Enum=Phone,Address,Name is one value, "Phone,Address,Name": write Enum=\\{Phone,Address,Name\\} or Enum=Phone;Address;Name for 3 values \\(or Enum="Phone,Address,Name" to keep one\\)',
        ),
        "opgen: manifests: 1 warning \\(--strict\\); nothing was written",
      ],
    },
  ],
  [
    "a default of the wrong type",
    {
      files: { [TYPES]: field("@default abc", "int32") },
      lines: source(
        '@default "abc" is not valid for field "spec.f", and kube-apiserver would refuse the CRD: default: Invalid value: "string": default in body must be of type integer: "string"',
      ),
    },
  ],
  [
    "a boolean default that is a word",
    {
      files: { [TYPES]: field("@default yes", "boolean") },
      lines: source('@default "yes" is not valid for field "spec.f".*must be of type boolean.*'),
    },
  ],
  [
    "a list default on a string",
    {
      files: { [TYPES]: field("@default {a,b}", "string") },
      lines: source(
        '@default \\["a","b"\\] is not valid for field "spec.f".*must be of type string.*',
      ),
    },
  ],
  [
    "a default outside the enum",
    {
      files: {
        [TYPES]: kind("  /**\n   * @validation Enum=a;b\n   * @default c\n   */\n  f?: string;"),
      },
      lines: source(
        '@default "c" is not valid for field "spec.f".*Unsupported value: "c": supported values: "a", "b"',
        6,
        6,
      ),
    },
  ],
  [
    "a default longer than MaxLength",
    {
      files: {
        [TYPES]: kind(
          "  /**\n   * @validation MaxLength=2\n   * @default abc\n   */\n  f?: string;",
        ),
      },
      lines: source('@default "abc" is not valid .*Too long: may not be more than 2 bytes', 6, 6),
    },
  ],
  [
    "a default below the minimum",
    {
      files: {
        [TYPES]: kind("  /**\n   * @validation Minimum=5\n   * @default 1\n   */\n  f?: int32;"),
      },
      lines: source("@default 1 is not valid .*should be greater than or equal to 5", 6, 6),
    },
  ],
  [
    "a default that misses the pattern",
    {
      files: {
        [TYPES]: kind(
          "  /**\n   * @validation Pattern=`^[a-z]+$`\n   * @default ABC\n   */\n  f?: string;",
        ),
      },
      lines: source("@default \"ABC\" is not valid .*should match '\\^\\[a-z\\]\\+\\$'", 6, 6),
    },
  ],
  [
    "a default outside an enum of a string union",
    {
      files: { [TYPES]: field('@default "c"', '"a" | "b"') },
      lines: source('@default "c" is not valid .*Unsupported value: "c".*'),
    },
  ],
  [
    "a CEL rule that does not compile",
    {
      files: { [TYPES]: field('@validation XValidation rule="self <="', "int32") },
      lines: source(
        `@validation XValidation: ${KUBE}.*\\.x-kubernetes-validations\\[0\\]\\.rule: Invalid value: apiextensions\\.ValidationRule\\{Rule:"self <=", .*\\}: compilation failed: ERROR: <input>:1:8: Syntax error: .*`,
      ),
    },
  ],
  [
    "a CEL message expression that does not compile",
    {
      files: {
        [TYPES]: field(
          '@validation XValidation rule="self > 0" messageExpression="string(self"',
          "int32",
        ),
      },
      lines: source(
        `@validation XValidation: ${KUBE}.*\\.x-kubernetes-validations\\[0\\]\\.messageExpression: Invalid value: .*: messageExpression compilation failed: ERROR: <input>:1:\\d+: Syntax error: .*`,
      ),
    },
  ],
  [
    "a CEL rule with an unclosed string",
    {
      files: { [TYPES]: field("@validation XValidation rule=`self == 'a`", "string") },
      lines: source(
        `@validation XValidation: ${KUBE}.*\\.rule: Invalid value: .*: compilation failed: ERROR: .*`,
      ),
    },
  ],
  // ---- printer columns: kube's refusals in its words, then what kube stores but cannot print
  ...(
    [
      [
        'jsonPath="spec.size"',
        `@printcolumn: ${KUBE}spec\\.versions\\[0\\]\\.additionalPrinterColumns\\[0\\]\\.JSONPath: Invalid value: "spec\\.size": must be a simple json path starting with \\.`,
      ],
      [
        "type=int jsonPath=.spec.size",
        `@printcolumn: ${KUBE}spec\\.versions\\[0\\]\\.additionalPrinterColumns\\[0\\]\\.type: Invalid value: "int": must be one of boolean,date,integer,number,string`,
      ],
      [
        "type=bogus jsonPath=.spec.size",
        `@printcolumn: ${KUBE}spec\\.versions\\[0\\]\\.additionalPrinterColumns\\[0\\]\\.type: Invalid value: "bogus": must be one of boolean,date,integer,number,string`,
      ],
      [
        "jsonPath=.spec.size format=integer",
        `@printcolumn: ${KUBE}spec\\.versions\\[0\\]\\.additionalPrinterColumns\\[0\\]\\.format: Invalid value: "integer": must be one of byte,date,date-time,double,float,int32,int64,password`,
      ],
      [
        'jsonPath=".spec.items[0"',
        '@printcolumn "Size": jsonPath "\\.spec\\.items\\[0" does not parse: .*',
      ],
      [
        "jsonPath=.spec.size priority=-1",
        '@printcolumn "Size": priority -1 must not be negative .*',
      ],
    ] as const
  ).map(([args, message]): [string, Case] => [
    `a printer column with ${args}`,
    {
      files: {
        [TYPES]: kind("  size?: int32;", {
          // The type given first wins: `type=int` after `type=integer` is a duplicate argument.
          resource: `@resource\n * @printcolumn name=Size ${args.startsWith("type=") ? "" : "type=integer "}${args}`,
        }),
      },
      lines: source(message, 8, 4),
    },
  ]),
  [
    "a CEL rule comparing an integer field with a string (compiled typed, as kube does)",
    {
      files: { [TYPES]: field("@validation XValidation rule=\"self == 'x'\"", "int32") },
      lines: source(
        `@validation XValidation: ${KUBE}spec\\.versions\\[0\\]\\.schema\\.openAPIV3Schema\\.properties\\[spec\\]\\.properties\\[f\\]\\.x-kubernetes-validations\\[0\\]\\.rule: Invalid value: apiextensions\\.ValidationRule\\{Rule:"self == 'x'", .*\\}: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '\\(int, string\\)'`,
      ),
    },
  ],
  // ---- names kube-apiserver refuses, and collisions
  ...(
    ["ThingList", "Status", "WatchEvent", "ObjectMeta", "DeleteOptions", "ListOptions"] as const
  ).map((name): [string, Case] => [
    `the reserved kind ${name}`,
    {
      files: { [TYPES]: kind("  size?: int32;", { name }) },
      lines: source(`kind ${name}: .*; rename the kind`, 8, 18),
    },
  ]),
  [
    "a version with capitals",
    {
      files: { "src/api/v1/groupversion.ts": gv("demo.example.com", "V1") },
      lines: source('version "V1" must be a DNS-1035 label .*', 2, 40, GROUP_VERSION),
    },
  ],
  [
    "a version that is a number",
    {
      files: { "src/api/v1/groupversion.ts": gv("demo.example.com", "1") },
      lines: source('version "1" must be a DNS-1035 label .*', 2, 40, GROUP_VERSION),
    },
  ],
  [
    "a group without a dot",
    {
      files: { "src/api/v1/groupversion.ts": gv("demo") },
      lines: source('group "demo" should be a domain with at least one dot.*', 1, 5, GROUP_VERSION),
    },
  ],
  [
    "a group with capitals",
    {
      files: { "src/api/v1/groupversion.ts": gv("Demo.example.com") },
      lines: source(
        'group "Demo\\.example\\.com" must be a DNS-1123 subdomain.*',
        1,
        5,
        GROUP_VERSION,
      ),
    },
  ],
  [
    "a plural with capitals",
    {
      files: { [TYPES]: kind("  size?: int32;", { resource: "@resource path=Things" }) },
      lines: source('kind Thing: plural "Things" must be a lowercase DNS-1123 label.*', 8, 18),
    },
  ],
  [
    "a short name with an underscore",
    {
      files: { [TYPES]: kind("  size?: int32;", { resource: "@resource shortName=t_1" }) },
      lines: source('kind Thing: shortName "t_1" must be a lowercase DNS-1123 label.*', 8, 18),
    },
  ],
  [
    "a singular with a dot",
    {
      files: { [TYPES]: kind("  size?: int32;", { resource: "@resource singular=th.ing" }) },
      lines: source('kind Thing: singular "th\\.ing" must be a lowercase DNS-1123 label.*', 8, 18),
    },
  ],
  [
    "two kinds with one CRD name",
    {
      files: {
        "src/api/v1/other.types.ts": kind("  size?: int32;", {
          name: "Other",
          resource: "@resource path=things",
        }),
      },
      lines: source(
        "kind Thing: its CRD would be things\\.demo\\.example\\.com, the CRD of kind Other \\(src/api/v1/other\\.types\\.ts:8\\); give one of them another @resource path=",
        8,
        18,
      ),
    },
  ],
  [
    "a second group in a single-group project",
    {
      files: {
        "src/api/v2/groupversion.ts": gv("other.example.com", "v2"),
        "src/api/v2/widget.types.ts": kind("  size?: int32;", { name: "Widget" }),
      },
      lines: source(
        "kind Widget: group other\\.example\\.com is a second API group, but this project is single-group .*",
        8,
        18,
        "src/api/v2/widget.types.ts",
      ),
    },
  ],
  [
    "a kind declared twice in one version",
    {
      files: { "src/api/v1/again.types.ts": kind("  other?: string;") },
      lines: source("kind Thing is declared twice for demo\\.example\\.com/v1 .*", 8, 18),
    },
  ],
  [
    "two versions and no storage version",
    {
      files: {
        "src/api/v2/groupversion.ts": gv("demo.example.com", "v2"),
        "src/api/v2/thing.types.ts": kind("  size?: int32;"),
      },
      lines: source(
        "kind Thing has 2 versions \\(v1, v2\\) but none is marked @storageversion; .*",
        8,
        18,
      ),
    },
  ],
  [
    "a kind in a folder without groupversion.ts",
    {
      files: { "src/api/v1/groupversion.ts": null },
      lines: source(
        "kind Thing: no groupversion\\.ts in its folder, so its API group is unknown",
        8,
        18,
      ),
    },
  ],
  // ---- types
  [
    "a client-node type newer than 1.32",
    {
      files: {
        [TYPES]: kind("  f?: V1PodCertificateProjection;", {
          before: 'import type { V1PodCertificateProjection } from "@kubernetes/client-node";\n',
        }),
      },
      lines: source(
        'field "spec\\.f": V1PodCertificateProjection from @kubernetes/client-node is not a type of the Kubernetes 1\\.32 API .*',
        5,
        7,
      ),
    },
  ],
  [
    "a type that does not exist",
    {
      files: { [TYPES]: kind("  f?: Missing;") },
      lines: source('field "spec\\.f": .*Missing.*', 4, 7),
    },
  ],
  [
    "a function-typed field",
    { files: { [TYPES]: kind("  f?: () => void;") }, lines: source('field "spec\\.f": .*', 4, 7) },
  ],
  [
    "a tuple",
    {
      files: { [TYPES]: kind("  f?: [string, int32];") },
      lines: source('field "spec\\.f": .*', 4, 7),
    },
  ],
  [
    "a Map",
    {
      files: { [TYPES]: kind("  f?: Map<string, string>;") },
      lines: source('field "spec\\.f": .*', 4, 7),
    },
  ],
  [
    "a union of objects",
    {
      files: { [TYPES]: kind("  f?: { a: string } | { b: string };") },
      lines: source('field "spec\\.f": .*', 4, 7),
    },
  ],
  [
    "a bigint",
    { files: { [TYPES]: kind("  f?: bigint;") }, lines: source('field "spec\\.f": .*', 4, 7) },
  ],
  [
    "a Date",
    { files: { [TYPES]: kind("  f?: Date;") }, lines: source('field "spec\\.f": .*', 4, 7) },
  ],
  // ---- paths and files
  [
    "--paths that name nothing",
    {
      args: ["manifests", "--paths", "src/apis"],
      lines: ["opgen: --paths src/apis: no such file or folder in .*; nothing was written"],
    },
  ],
  [
    "--paths that name a YAML file",
    {
      args: ["manifests", "--paths", "PROJECT"],
      lines: [
        "opgen: --paths PROJECT: not a folder or a \\.ts source \\(tests and \\.d\\.ts are not read\\); nothing was written",
      ],
    },
  ],
  [
    "--rbac-paths that name nothing",
    {
      args: ["manifests", "--rbac-paths", "src/controller"],
      lines: [
        "opgen: --rbac-paths src/controller: no such file or folder in .*; nothing was written",
      ],
    },
  ],
  [
    "--prune when no kind was found",
    {
      files: {
        "config/crd/bases/demo.example.com_things.yaml":
          "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n",
        "src/empty/.keep": "",
      },
      args: ["manifests", "--paths", "src/empty", "--prune"],
      lines: [
        "opgen: --prune: no @resource kind was found under src/empty, so it would remove every CRD in config/crd/bases \\(1\\); check --paths, nothing was removed or written",
      ],
    },
  ],
  [
    "a dangling symbolic link among the sources",
    {
      setup: (dir) => symlinkSync("../missing.ts", join(dir, "src/api/v1/gone.ts")),
      lines: [
        "opgen: src/api/v1/gone\\.ts is a symbolic link to \\.\\./missing\\.ts, which does not exist; fix or remove the link",
      ],
    },
  ],
  [
    "an output folder that is a file",
    {
      files: { "config/crd": "not a folder\n" },
      lines: [
        "opgen: cannot write config/crd/bases/demo\\.example\\.com_things\\.yaml: config/crd is a file, not a folder; move it away \\(or write elsewhere\\) and run again; nothing was written",
      ],
    },
  ],
  [
    "a role output under a file",
    {
      files: { "config/rbac": "not a folder\n" },
      lines: [
        "opgen: cannot write config/rbac/role\\.yaml: config/rbac is a file, not a folder; .*; nothing was written",
      ],
    },
  ],
  [
    "--output-dir under a file",
    {
      args: ["manifests", "--output-dir", "PROJECT/crds"],
      lines: [
        "opgen: cannot write PROJECT/crds/demo\\.example\\.com_things\\.yaml: PROJECT is a file, not a folder; .*; nothing was written",
      ],
    },
  ],
  [
    "a folder where the role goes",
    {
      setup: (dir) => mkdirSync(join(dir, "config/rbac/role.yaml"), { recursive: true }),
      lines: [
        "opgen: cannot write config/rbac/role\\.yaml: it is a folder; move it away \\(or write elsewhere\\) and run again; nothing was written",
      ],
    },
  ],
  [
    "a folder where a CRD goes, with --check",
    {
      setup: (dir) =>
        mkdirSync(join(dir, "config/crd/bases/demo.example.com_things.yaml"), { recursive: true }),
      args: ["manifests", "--check"],
      lines: [
        "opgen: cannot write config/crd/bases/demo\\.example\\.com_things\\.yaml: it is a folder; .*; nothing was written",
      ],
    },
  ],
  [
    "a symbolic link to nothing where a CRD goes",
    {
      setup: (dir) => {
        mkdirSync(join(dir, "config/crd/bases"), { recursive: true });
        symlinkSync("../../gone.yaml", join(dir, "config/crd/bases/demo.example.com_things.yaml"));
      },
      lines: [
        "opgen: cannot write config/crd/bases/demo\\.example\\.com_things\\.yaml: it is a symbolic link to \\.\\./\\.\\./gone\\.yaml, which does not exist; create its target or remove the link, and run again; nothing was written",
      ],
    },
  ],
  [
    "a symbolic link to nothing as an output folder",
    {
      setup: (dir) => symlinkSync("elsewhere", join(dir, "config")),
      lines: [
        "opgen: cannot write config/crd/bases/demo\\.example\\.com_things\\.yaml: config is a symbolic link to elsewhere, which does not exist; .*; nothing was written",
      ],
    },
  ],
  ...(isRoot
    ? []
    : [
        [
          "a role output folder without write permission",
          {
            setup: (dir: string) => {
              mkdirSync(join(dir, "config/rbac"), { recursive: true });
              chmodSync(join(dir, "config/rbac"), 0o555);
            },
            lines: [
              "opgen: cannot open config/rbac/role\\.yaml: permission denied; check the permissions of the file and its folders; nothing was written",
            ],
          },
        ] as [string, Case],
      ]),
  [
    "an unknown flag",
    {
      args: ["manifests", "--prnue"],
      lines: [
        "opgen: unknown option '--prnue' \\(Did you mean --prune\\?\\) \\(see opgen --help\\)",
      ],
    },
  ],
  [
    "--max-desc-len that is not a number",
    { args: ["manifests", "--max-desc-len", "ten"], lines: ["opgen: .*--max-desc-len.*"] },
  ],
];

describe("opgen manifests refuses bad input: exit 1, one line each, the tree unchanged", () => {
  it.concurrent.each(cases)("%s", async (_name, c) => {
    await refuse(c);
  });
});

describe("opgen init and create api refuse bad input before writing anything", () => {
  const initCases: [string, string[], string][] = [
    [
      "an owner over two lines",
      ["init", "--owner", "ACME\nInc", "--skip-install"],
      'opgen: invalid --owner "ACME\\\\nInc": .*',
    ],
    [
      "an owner that ends the license comment",
      ["init", "--owner", "x */ evil() /*", "--skip-install"],
      'opgen: invalid --owner .*"\\*/"',
    ],
    [
      "a domain with an underscore",
      ["init", "--domain", "my_domain", "--skip-install"],
      'opgen: invalid --domain "my_domain": .*',
    ],
    [
      "a project name with a space",
      ["init", "--project-name", "my op", "--skip-install"],
      'opgen: invalid project name "my op": .*',
    ],
    [
      "a dependency spec over two lines",
      ["init", "--runtime-spec", "1.0.0\nx", "--skip-install"],
      'opgen: invalid --runtime-spec "1\\.0\\.0\\\\nx": .*',
    ],
  ];
  it.concurrent.each(initCases)("init: %s", async (_name, args, line) => {
    const dir = mkdtempSync(join(root, "init-"));
    const r = await runCli(args, dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(new RegExp(`^${line}$`));
    expect(snapshot(dir)).toEqual({});
  });

  const createCases: [string, string[], string][] = [
    [
      "a lower-case kind",
      ["--group", "demo", "--version", "v1", "--kind", "thing"],
      "opgen: invalid --kind .*",
    ],
    [
      "a version with capitals",
      ["--group", "demo", "--version", "V1", "--kind", "Thing"],
      "opgen: invalid --version .*",
    ],
    [
      "a group with an underscore",
      ["--group", "de_mo", "--version", "v1", "--kind", "Thing"],
      "opgen: invalid --group .*",
    ],
    [
      "the project's domain in the group",
      ["--group", "demo.example.com", "--version", "v1", "--kind", "Widget"],
      'opgen: invalid --group "demo\\.example\\.com": the project\'s domain example\\.com is added to the group, so pass --group demo for the API group demo\\.example\\.com',
    ],
    // Kinds opgen manifests would refuse, refused before anything is written.
    ...(["WidgetList", "Status", "ObjectMeta", "WatchEvent", "ListOptions"] as const).map(
      (kind): [string, string[], string] => [
        `the kind ${kind}`,
        ["--group", "demo", "--version", "v1", "--kind", kind],
        `opgen: invalid --kind "${kind}": .*, so opgen manifests would refuse it; choose another kind`,
      ],
    ),
    ...(["Condition", "GroupVersion"] as const).map((kind): [string, string[], string] => [
      `the kind ${kind}, a name its types file imports`,
      ["--group", "demo", "--version", "v1", "--kind", kind],
      `opgen: invalid --kind "${kind}": the scaffolded ${kind.toLowerCase()}\\.types\\.ts imports a ${kind} of its own, .*; choose another kind`,
    ]),
  ];
  // One at a time: each runs the CLI, and eleven at once outlast a test timeout on a busy machine.
  it.each(createCases)("create api: %s", async (_name, args, line) => {
    const dir = join(root, `create-${n++}`);
    cpSync(base, dir, { recursive: true });
    const before = snapshot(dir);
    const r = await runCli(["create", "api", ...args], dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(new RegExp(`^${line}$`));
    expect(snapshot(dir)).toEqual(before);
  });
});

it("covers at least 80 bad inputs", () => {
  expect(cases.length + 5 + 11).toBeGreaterThanOrEqual(90);
});

/** A project of `opgen init` (no npm install) with demo/v1 Thing, made once for the cases below. */
let scaffoldedProject: Promise<string> | undefined;
function scaffolded(): Promise<string> {
  scaffoldedProject ??= (async () => {
    const dir = join(root, "scaffolded");
    mkdirSync(dir);
    for (const args of [
      ["init", "--skip-install"],
      ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Thing"],
    ]) {
      const r = await runCli(args, dir);
      expect(r.exitCode, r.stderr).toBe(0);
    }
    return dir;
  })();
  return scaffoldedProject;
}

/** Runs `args` in a copy of the scaffolded project after `setup`: exit 1, `line`, nothing changed. */
async function refuseInProject(setup: (dir: string) => void, args: string[], line: string) {
  const dir = join(root, `project-${n++}`);
  cpSync(await scaffolded(), dir, { recursive: true });
  setup(dir);
  const before = snapshot(dir);
  const r = await runCli(args, dir);
  expect(r.exitCode).toBe(1);
  expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(new RegExp(`^${line}$`));
  expect(snapshot(dir)).toEqual(before);
}

describe("YAML inputs that do not parse are one line: file:line:col: not valid YAML", () => {
  // The project the cases copy: init and create api, made once (bounded by the hook's timeout).
  beforeAll(async () => {
    await scaffolded();
  }, 120_000);

  const yamlCases: [string, string, string, string[], string][] = [
    [
      "PROJECT",
      "PROJECT",
      "domain: my.domain\nprojectName: x\n  foo: bar\n",
      ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Thing"],
      "opgen: PROJECT:2:14: not valid YAML: Nested mappings are not allowed in compact mappings; fix it and run again",
    ],
    [
      "PROJECT, read by create webhook",
      "PROJECT",
      "domain: [my.domain\n",
      [
        "create",
        "webhook",
        "--group",
        "demo",
        "--version",
        "v1",
        "--kind",
        "Thing",
        "--defaulting",
      ],
      "opgen: PROJECT:2:1: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a \\]; fix it and run again",
    ],
    [
      "a kustomization create api edits",
      "config/crd/kustomization.yaml",
      "resources:\n- a\n  b: [\n",
      ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Widget"],
      "opgen: config/crd/kustomization\\.yaml:2:3: not valid YAML: .*; fix it and run again",
    ],
    [
      "a CRD envtest installs",
      "crds/thing.yaml",
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\n   bad: [\n",
      ["envtest", "--crd-dir", "crds", "--kubeconfig", "kc.yaml"],
      "opgen: envtest failed to start: crds/thing\\.yaml:4:9: not valid YAML: Nested mappings are not allowed in compact mappings",
    ],
  ];
  it.each(yamlCases)("%s", async (_name, file, text, args, line) => {
    await refuseInProject(
      (dir) => {
        mkdirSync(join(dir, file, ".."), { recursive: true });
        writeFileSync(join(dir, file), text);
      },
      args,
      line,
    );
  });
});

describe("file-system conditions of the scaffold are one line naming the path, writing nothing", () => {
  // The project the cases copy: init and create api, made once (bounded by the hook's timeout).
  beforeAll(async () => {
    await scaffolded();
  }, 120_000);

  const api = (kind: string, ...more: string[]) => [
    "create",
    "api",
    "--group",
    "demo",
    "--version",
    "v1",
    "--kind",
    kind,
    ...more,
  ];
  const folder = (path: string) => (dir: string) => {
    rmSync(join(dir, path), { force: true });
    mkdirSync(join(dir, path), { recursive: true });
  };
  const fsCases: [string, (dir: string) => void, string[], string][] = [
    [
      "PROJECT that is a folder",
      folder("PROJECT"),
      api("Widget"),
      "opgen: cannot read PROJECT: it is a folder, where opgen expects a file; move the folder away and run again",
    ],
    [
      "main.ts that is a folder",
      folder("src/main.ts"),
      api("Widget"),
      "opgen: cannot read src/main\\.ts: it is a folder, where opgen expects a file; move the folder away and run again",
    ],
    [
      "a kustomization that is a folder, for create webhook",
      folder("config/default/kustomization.yaml"),
      [
        "create",
        "webhook",
        "--group",
        "demo",
        "--version",
        "v1",
        "--kind",
        "Thing",
        "--defaulting",
      ],
      "opgen: cannot read config/default/kustomization\\.yaml: it is a folder, .*",
    ],
    [
      "a config folder that is a file",
      (dir) => {
        rmSync(join(dir, "config/rbac"), { recursive: true });
        writeFileSync(join(dir, "config/rbac"), "");
      },
      api("Widget"),
      "opgen: cannot read config/rbac/kustomization\\.yaml: config/rbac is a file, not a folder; move it away and run again",
    ],
    [
      "a test folder that is a file",
      (dir) => {
        rmSync(join(dir, "test"), { recursive: true, force: true });
        writeFileSync(join(dir, "test"), "");
      },
      api("Widget"),
      "opgen: cannot write test/widget\\.controller\\.test\\.ts: test is a file, not a folder; .*; nothing was written",
    ],
    [
      "a folder where --force writes the types",
      folder("src/api/v1/thing.types.ts"),
      api("Thing", "--force"),
      "opgen: cannot write src/api/v1/thing\\.types\\.ts: it is a folder; move it away \\(or write elsewhere\\) and run again; nothing was written",
    ],
    [
      "a symbolic link to nothing where the sample goes",
      (dir) => symlinkSync("gone.yaml", join(dir, "config/samples/demo_v1_widget.yaml")),
      api("Widget"),
      "opgen: cannot write config/samples/demo_v1_widget\\.yaml: it is a symbolic link to gone\\.yaml, which does not exist; create its target or remove the link, and run again; nothing was written",
    ],
    ...(isRoot
      ? []
      : [
          [
            "a controllers folder without write permission",
            (dir: string) => chmodSync(join(dir, "src/controllers"), 0o555),
            api("Widget"),
            "opgen: cannot open src/controllers/widget\\.controller\\.ts: permission denied; check the permissions of the file and its folders; nothing was written",
          ] as [string, (dir: string) => void, string[], string],
        ]),
  ];
  it.each(fsCases)("%s", async (_name, setup, args, line) => {
    await refuseInProject(setup, args, line);
  });

  it("writes through a symbolic link to a file, keeping the link", async () => {
    const dir = join(root, `project-${n++}`);
    cpSync(await scaffolded(), dir, { recursive: true });
    writeFileSync(join(dir, "role.yaml"), "");
    rmSync(join(dir, "config/rbac/role.yaml"));
    symlinkSync("../../role.yaml", join(dir, "config/rbac/role.yaml"));
    const r = await runCli(["manifests"], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(snapshot(dir)["config/rbac/role.yaml"]).toBe("-> ../../role.yaml");
    expect(readFileSync(join(dir, "role.yaml"), "utf8")).toMatch(/^kind: ClusterRole$/m);
  });

  it("writes CRDs to an absolute --output-dir, not below the project", async () => {
    const dir = join(root, `project-${n++}`);
    cpSync(await scaffolded(), dir, { recursive: true });
    const out = join(root, `crds-${n++}`);
    const r = await runCli(["manifests", "--output-dir", out], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(["demo.my.domain_things.yaml"]);
  });
});

describe("other mistakes are one line too, never an internal error", () => {
  // The project the cases copy: init and create api, made once (bounded by the hook's timeout).
  beforeAll(async () => {
    await scaffolded();
  }, 120_000);

  const otherCases: [string, (dir: string) => void, string[], string][] = [
    [
      "a projectName in PROJECT that is not a label",
      (dir) =>
        writeFileSync(
          join(dir, "PROJECT"),
          readFileSync(join(dir, "PROJECT"), "utf8").replace(
            /^projectName: .*$/m,
            "projectName: My Operator",
          ),
        ),
      ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Widget"],
      'opgen: PROJECT: projectName "My Operator" is not a DNS-1123 label .*; fix it',
    ],
    [
      "a config/samples that is a file",
      (dir) => {
        rmSync(join(dir, "config/samples"), { recursive: true });
        writeFileSync(join(dir, "config/samples"), "");
      },
      ["manifests"],
      "opgen: cannot scandir config/samples: config/samples is a file, not a folder; move it away",
    ],
    [
      "a port out of range",
      () => {},
      ["envtest", "--port", "99999"],
      "opgen: option '--port <n>' argument '99999' is invalid\\. --port must be at most 65535 \\(0: a free port\\) \\(see opgen --help\\)",
    ],
  ];
  it.each(otherCases)("%s", async (_name, setup, args, line) => {
    await refuseInProject(setup, args, line);
  });

  it("shows the help of a command run without its subcommand on stdout, exit 0, as cobra does", async () => {
    for (const args of [[], ["create"]]) {
      const r = await runCli(args, root);
      expect(r.exitCode, args.join(" ")).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/^Usage: opgen /);
    }
  });

  it("ends quietly when its reader is gone (opgen markers | head -1)", async () => {
    const cli = execa("node", [CLI, "markers"], { reject: false });
    // Closed before node has started: its first write meets a pipe without a reader.
    cli.stdout!.destroy();
    const r = await cli;
    expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: "" });
  });
});
