/**
 * Reading `@rbac` markers from sources: where they may stand, how their arguments are read, and one
 * `path:line:col` error per error class.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectRbacRules } from "../../src/generators/rbac/collect.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";
import { listSourceFiles } from "../../src/source/project-files.js";
import { ProjectSources } from "../../src/source/project-sources.js";
import { typescript } from "../../src/source/typescript.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "opgen-rbac-"));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function collect(files: Record<string, string>) {
  const dir = project(files);
  return collectRbacRules(new ProjectSources(typescript, dir), listSourceFiles(dir, ["src"]));
}

function errors(source: string): string[] {
  return collect({ "src/c.ts": source }).diagnostics.map(formatDiagnostic);
}

describe("listSourceFiles", () => {
  it("scans .ts files under the paths, skipping tests, declarations and dependencies", () => {
    const dir = project({
      "src/a.ts": "",
      "src/controllers/b.ts": "",
      "src/controllers/b.test.ts": "",
      "src/controllers/b.spec.ts": "",
      "src/types.d.ts": "",
      "src/test/helper.ts": "",
      "src/node_modules/x/index.ts": "",
      "src/notes.md": "",
      "other/c.ts": "",
    });
    expect(listSourceFiles(dir, ["src", "missing"])).toEqual(["src/a.ts", "src/controllers/b.ts"]);
    expect(listSourceFiles(dir, ["src", "other"])).toEqual([
      "other/c.ts",
      "src/a.ts",
      "src/controllers/b.ts",
    ]);
  });
});

describe("collectRbacRules", () => {
  it("reads markers on a class, on the module, inside a function and in the Kubebuilder spelling", () => {
    const { rules, diagnostics } = collect({
      "src/controllers/app.controller.ts": [
        "/**",
        " * Module doc.",
        " * @rbac groups=core,resources=events,verbs=create;patch",
        " */",
        'import { x } from "y";',
        "",
        "/**",
        " * AppReconciler reconciles App objects.",
        " *",
        " * @rbac groups=apps,resources=deployments;deployments/status,verbs=get;list;watch",
        ' * @rbac groups="",resources=configmaps,resourceNames=a;b,verbs=get',
        " * @rbac urls=/metrics,verbs=get",
        " * @rbac groups=apps,resources=deployments,verbs=get,namespace=infra,roleName=infra-role",
        " */",
        "export class AppReconciler {}",
        "",
        "function helper() {",
        "  /** @kubebuilder:rbac:groups=batch,resources=jobs,verbs=create */",
        "  return 1;",
        "}",
        "",
      ].join("\n"),
    });
    expect(diagnostics).toEqual([]);
    expect(
      rules.map((r) => [r.position.line, r.position.column, r.className ?? "", r.rule]),
    ).toEqual([
      [3, 4, "", { ...empty, groups: ["core"], resources: ["events"], verbs: ["create", "patch"] }],
      [
        10,
        4,
        "AppReconciler",
        {
          ...empty,
          groups: ["apps"],
          resources: ["deployments", "deployments/status"],
          verbs: ["get", "list", "watch"],
        },
      ],
      [
        11,
        4,
        "AppReconciler",
        {
          ...empty,
          groups: [""],
          resources: ["configmaps"],
          resourceNames: ["a", "b"],
          verbs: ["get"],
        },
      ],
      [12, 4, "AppReconciler", { ...empty, urls: ["/metrics"], verbs: ["get"] }],
      [
        13,
        4,
        "AppReconciler",
        {
          ...empty,
          groups: ["apps"],
          resources: ["deployments"],
          verbs: ["get"],
          namespace: "infra",
          roleName: "infra-role",
        },
      ],
      [18, 7, "", { ...empty, groups: ["batch"], resources: ["jobs"], verbs: ["create"] }],
    ]);
  });

  it("ignores other tags, plain comments, strings and test files", () => {
    const { rules, diagnostics } = collect({
      "src/a.ts": [
        "/** @see https://example.com @param x @unknownTag */",
        "// @rbac groups=apps,resources=deployments,verbs=get",
        "/* @rbac groups=apps,resources=deployments,verbs=get */",
        'const s = "/** @rbac groups=apps,resources=deployments,verbs=get */";',
      ].join("\n"),
      "src/a.test.ts": "/** @rbac groups=apps,resources=deployments,verbs=get */",
    });
    expect(diagnostics).toEqual([]);
    expect(rules).toEqual([]);
  });

  it("warns about Kubebuilder markers pasted as line comments, which grant nothing", () => {
    const { rules, diagnostics } = collect({
      "src/c.ts": [
        "// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get",
        "export class R {",
        "  //+kubebuilder:rbac:groups=core,resources=pods,verbs=list ",
        "}",
      ].join("\n"),
    });
    expect(rules).toEqual([]);
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      "src/c.ts:1:4: warning: a line comment is not a marker and grants nothing; write it in a JSDoc block: /** @rbac groups=apps,resources=deployments,verbs=get */",
      "src/c.ts:3:5: warning: a line comment is not a marker and grants nothing; write it in a JSDoc block: /** @rbac groups=core,resources=pods,verbs=list */",
    ]);
  });

  it("reports an unknown argument with a suggestion", () => {
    expect(errors("/** @rbac groups=apps,resource=deployments,verbs=get */")).toEqual([
      'src/c.ts:1:23: @rbac: unknown argument "resource"; did you mean "resources"?',
    ]);
  });

  it("reports a missing verbs argument", () => {
    expect(errors("/**\n * @rbac groups=apps,resources=deployments\n */")).toEqual([
      'src/c.ts:2:4: @rbac: missing argument "verbs" (a list joined with ;)',
    ]);
  });

  it("reports urls mixed with resources or groups", () => {
    expect(
      errors("/** @rbac groups=apps,resources=deployments,urls=/metrics,verbs=get */"),
    ).toEqual([
      "src/c.ts:1:5: @rbac: urls cannot be combined with groups, resources or resourceNames: a rule grants either resources or non-resource URLs; write two markers",
    ]);
    expect(errors("/** @rbac groups=apps,urls=/metrics,verbs=get */")).toHaveLength(1);
  });

  it("reports urls in a namespaced Role", () => {
    expect(errors("/** @rbac urls=/metrics,verbs=get,namespace=ops */")).toEqual([
      "src/c.ts:1:5: @rbac: urls cannot be used with namespace: a namespaced Role cannot grant non-resource URLs",
    ]);
  });

  it("reports unknown verbs, suggesting the closest known verb", () => {
    expect(
      errors("/** @rbac groups=apps,resources=deployments,verbs=get;lsit;Watch;frobnicate */"),
    ).toEqual([
      'src/c.ts:1:5: @rbac: unknown verb "lsit" for resources; did you mean list?',
      'src/c.ts:1:5: @rbac: unknown verb "Watch" for resources; did you mean watch?',
      'src/c.ts:1:5: @rbac: unknown verb "frobnicate" for resources; known verbs: get, list, watch, create, update, patch, delete, deletecollection, use, bind, escalate, impersonate, approve, sign, attest, *',
    ]);
    expect(errors("/** @rbac urls=/metrics,verbs=list */")).toEqual([
      'src/c.ts:1:5: @rbac: unknown verb "list" for non-resource URLs; known verbs: get, post, put, patch, delete, head, options, *',
    ]);
  });

  it("reports resources without groups, and a rule with neither resources nor urls", () => {
    expect(errors("/** @rbac resources=pods,verbs=get */")).toEqual([
      'src/c.ts:1:5: @rbac: missing groups; write groups=core (or groups="") for the core group',
    ]);
    expect(errors("/** @rbac groups=apps,verbs=get */")).toEqual([
      "src/c.ts:1:5: @rbac: missing resources (or urls for non-resource URLs)",
    ]);
  });

  it("reports an invalid namespace and a value of the wrong shape", () => {
    expect(errors("/** @rbac groups=apps,resources=x,verbs=get,namespace=Bad_NS */")).toEqual([
      'src/c.ts:1:5: @rbac: namespace "Bad_NS" is not a valid namespace name (DNS-1123 label)',
    ]);
    expect(errors("/** @rbac groups=apps,resources=x;;y,verbs=get */")).toEqual([
      'src/c.ts:1:33: @rbac: argument "resources": empty element in list "x;;y"',
    ]);
  });

  it("points at the continuation line of a marker that wraps", () => {
    expect(
      errors(
        ["/**", " * @rbac groups=apps,resources=deployments,", " *   verbz=get", " */"].join("\n"),
      ),
    ).toEqual([
      'src/c.ts:3:6: @rbac: unknown argument "verbz"; did you mean "verbs"?',
      'src/c.ts:2:4: @rbac: missing argument "verbs" (a list joined with ;)',
    ]);
  });
});

const empty = {
  groups: [],
  resources: [],
  resourceNames: [],
  verbs: [],
  urls: [],
  namespace: "",
  roleName: "",
};
