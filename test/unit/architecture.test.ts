/**
 * The shape docs/architecture.md describes, checked on the import graph and the syntax tree of
 * the product code (`src/`, `packages/*\/src/`): which layer may import which, how long a function
 * may be, where a built-in resource may be named, and who writes the store. Each checker is also
 * run on a planted violation, so a rule that stopped seeing anything would fail here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type LayerRule,
  layerOf,
  layerViolations,
  longFunctions,
  readSources,
  resourceNameLiterals,
  type Source,
  storeWrites,
} from "../helpers/architecture.js";
import { REPO_ROOT } from "../helpers/cli.js";

/**
 * Which layer may import which (its own layer always; every layer but apimachinery may import
 * apimachinery, listed). A workspace is one layer; envtest is one layer per folder of its `src/`,
 * `envtest/.` being the files that compose them (server.ts, env.ts, features.ts, ...).
 */
const LAYERS: Record<string, LayerRule> = {
  // Each Kubernetes concept's one home: it imports no other workspace.
  apimachinery: { may: [] },
  // What operators ship: never envtest, never the CLI.
  runtime: { may: ["apimachinery"] },
  // The CLI starts envtest only for `opgen dev` and `opgen envtest`, loaded on first use.
  cli: { may: ["apimachinery"], lazily: ["envtest"] },

  // envtest, bottom up. Objects and their metadata.
  "envtest/api": { may: ["apimachinery"] },
  // Objects and resource versions: knows nothing above it.
  "envtest/store": { may: ["apimachinery", "envtest/api"] },
  "envtest/patch": { may: ["apimachinery", "envtest/api"] },
  "envtest/schema": { may: ["apimachinery", "envtest/api"] },
  "envtest/crd": { may: ["apimachinery", "envtest/api"] },
  // The REST verbs and the write pipeline: never HTTP, never a resource's definition or a
  // controller. The pipeline runs the generic admission chain (admission/), whose steps it
  // yields; the plugins (admission/plugins, admission/policy) sit above it.
  "envtest/rest": {
    may: [
      "apimachinery",
      "envtest/api",
      "envtest/store",
      "envtest/patch",
      "envtest/schema",
      "envtest/admission",
    ],
  },
  "envtest/admission": {
    may: [
      "apimachinery",
      "envtest/api",
      "envtest/store",
      "envtest/patch",
      "envtest/crd",
      "envtest/rest",
    ],
    // The dispatcher names the policy plugin's type; it never loads it.
    lazily: ["envtest/admission/policy"],
  },
  "envtest/auth": { may: ["apimachinery", "envtest/api", "envtest/store", "envtest/rest"] },
  "envtest/admission/plugins": {
    may: [
      "apimachinery",
      "envtest/api",
      "envtest/store",
      "envtest/rest",
      "envtest/admission",
      "envtest/auth",
    ],
  },
  "envtest/admission/policy": {
    may: [
      "apimachinery",
      "envtest/api",
      "envtest/store",
      "envtest/rest",
      "envtest/admission",
      "envtest/auth",
      "envtest/client",
    ],
  },
  // The internal client calls the REST verbs as a request does after decoding.
  "envtest/client": { may: ["apimachinery", "envtest/api", "envtest/rest"] },
  // Resource definitions: never HTTP, never a controller (kube's pkg/registry imports neither).
  "envtest/registry": {
    may: [
      "apimachinery",
      "envtest/api",
      "envtest/store",
      "envtest/schema",
      "envtest/crd",
      "envtest/rest",
      "envtest/admission",
      "envtest/admission/policy",
      "envtest/auth",
      "envtest/client",
    ],
  },
  // kube-controller-manager's parts: read the store, write through client/ (storeWrites below).
  "envtest/controllers": {
    may: [
      "apimachinery",
      "envtest/api",
      "envtest/store",
      "envtest/crd",
      "envtest/rest",
      "envtest/registry",
      "envtest/client",
    ],
  },
  // The HTTP front: filters, routing, wire formats; the table printer is the registry's.
  "envtest/http": {
    may: [
      "apimachinery",
      "envtest/api",
      "envtest/store",
      "envtest/rest",
      "envtest/auth",
      "envtest/registry",
    ],
  },
  // server.ts, env.ts and the files beside them compose everything.
  "envtest/.": { may: ["apimachinery", "envtest"] },
};

const files = readSources(REPO_ROOT);

const plant = (path: string, text: string): Source => ({ path, text });

describe("layers", () => {
  it("allow only the imports of the table", () => {
    expect(files.length).toBeGreaterThan(400);
    expect(layerViolations(files, LAYERS)).toEqual([]);
  });

  it("give every source of envtest a layer of the table", () => {
    // A folder added to envtest is placed in the table before it imports anything.
    const unplaced = files
      .filter((f) => f.path.startsWith("packages/envtest/src/"))
      .filter((f) => !(layerOf(f.path)! in LAYERS))
      .map((f) => f.path);
    expect(unplaced).toEqual([]);
  });

  it("fail on a planted violation of each kind", () => {
    const planted = [
      plant(
        "packages/envtest/src/store/planted.ts",
        'import { createHandler } from "../http/handler.js";\n',
      ),
      plant("packages/envtest/src/rest/planted.ts", 'export * from "../http/wire.js";\n'),
      plant(
        "packages/envtest/src/registry/core/planted.ts",
        'import type { Attributes } from "../../http/filters/authorization.js";\n',
      ),
      plant(
        "packages/envtest/src/registry/planted.ts",
        'import { WorkQueue } from "../controllers/work-queue.js";\n',
      ),
      plant(
        "packages/apimachinery/src/planted.ts",
        'import { startTestEnv } from "@opgen/envtest";\n',
      ),
      plant("packages/runtime/src/planted.ts", 'const m = await import("@opgen/envtest");\n'),
      plant("src/commands/planted.ts", 'import { startTestEnv } from "@opgen/envtest";\n'),
      plant("packages/envtest/src/newfolder/planted.ts", 'import "../api/types.js";\n'),
    ];
    expect(layerViolations(planted, LAYERS)).toEqual([
      "packages/envtest/src/store/planted.ts:1 envtest/store -> envtest/http (../http/handler.js)",
      "packages/envtest/src/rest/planted.ts:1 envtest/rest -> envtest/http (../http/wire.js)",
      "packages/envtest/src/registry/core/planted.ts:1 envtest/registry -> envtest/http (../../http/filters/authorization.js)",
      "packages/envtest/src/registry/planted.ts:1 envtest/registry -> envtest/controllers (../controllers/work-queue.js)",
      "packages/apimachinery/src/planted.ts:1 apimachinery -> envtest (@opgen/envtest)",
      "packages/runtime/src/planted.ts:1 runtime -> envtest (@opgen/envtest)",
      "src/commands/planted.ts:1 cli -> envtest (@opgen/envtest)",
      "packages/envtest/src/newfolder/planted.ts:1 envtest/newfolder -> envtest/api (../api/types.js)",
    ]);
  });

  it("let the CLI load envtest lazily (a dynamic import or a type-only one)", () => {
    const lazy = [
      plant("src/commands/lazy.ts", 'const { startTestEnv } = await import("@opgen/envtest");\n'),
      plant("src/dev/lazy.ts", 'import type { TestEnv } from "@opgen/envtest";\n'),
      plant("src/dev/lazy2.ts", 'import { type TestEnv } from "@opgen/envtest";\n'),
    ];
    expect(layerViolations(lazy, LAYERS)).toEqual([]);
  });
});

describe("functions", () => {
  const MAX = 150;

  it(`have no body over ${MAX} lines in product code`, () => {
    expect(longFunctions(files, MAX)).toEqual([]);
  });

  it("are measured by their own body, however they are written", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`);
    const planted = [
      plant("src/a.ts", ["export function planted() {", ...body(151), "}"].join("\n")),
      plant("src/b.ts", ["export function fits() {", ...body(150), "}"].join("\n")),
      plant("src/c.ts", ["class K {", "  method() {", ...body(151), "  }", "}"].join("\n")),
      plant("src/d.ts", ["export const arrow = () => {", ...body(151), "};"].join("\n")),
    ];
    expect(longFunctions(planted, MAX)).toEqual([
      { where: "src/a.ts:1", name: "planted", lines: 151 },
      { where: "src/c.ts:2", name: "method", lines: 151 },
      { where: "src/d.ts:1", name: "arrow", lines: 151 },
    ]);
  });
});

describe("resource names", () => {
  // The plurals of every minor the catalog holds (data/<minor>/resources.json).
  const data = join(REPO_ROOT, "packages/apimachinery/data");
  const { minors } = JSON.parse(readFileSync(join(data, "versions.json"), "utf8")) as {
    minors: string[];
  };
  const plurals = new Set(
    minors.flatMap((minor) =>
      (
        JSON.parse(readFileSync(join(data, minor, "resources.json"), "utf8")) as {
          resources: { plural: string }[];
        }
      ).resources.map((r) => r.plural),
    ),
  );

  /**
   * Where envtest may name a built-in resource. Everything particular to a resource is its
   * definition (registry/); the layers below it (store, REST verbs, write pipeline, HTTP
   * routing, the generic admission chain, the client, api/) serve every resource alike. Beside
   * the registry, kube itself names resources in its admission plugins (LimitRanger is about
   * pods, NamespaceLifecycle about namespaces), its controllers (each owns its resources), the
   * authorizer (RBAC's own resources, the self reviews every user may make), the quota
   * evaluators (one per resource, `pkg/quota/v1/evaluator/core`) and the objects every cluster
   * starts with (bootstrap.ts).
   */
  const MAY_NAME = [
    /^packages\/envtest\/src\/registry\//,
    /^packages\/envtest\/src\/admission\/(plugins|policy)\//,
    /^packages\/envtest\/src\/controllers\//,
    /^packages\/envtest\/src\/auth\//,
    /^packages\/envtest\/src\/rest\/quota\//,
    /^packages\/envtest\/src\/bootstrap\.ts$/,
  ];

  /**
   * Names the generic layers still carry, each for a reason kube shares: the URL grammar
   * (`/namespaces/{ns}/...`), webhooks and policies never intercepting their own configuration
   * (kube's IsExemptAdmissionConfigurationResource) nor a namespace's own lifecycle, the
   * impersonation filter's `serviceaccounts` check, a webhook's in-cluster Service, and the CRD
   * installer waiting for its CRDs. Listed by file with the count, so a new one fails.
   */
  const KNOWN: Record<string, number> = {
    "packages/envtest/src/http/request.ts": 2,
    "packages/envtest/src/http/filters/impersonation.ts": 1,
    "packages/envtest/src/admission/matching.ts": 8,
    "packages/envtest/src/admission/configurations.ts": 2,
    "packages/envtest/src/admission/dispatcher.ts": 1,
    "packages/envtest/src/admission/targets.ts": 2,
    "packages/envtest/src/env.ts": 2,
  };

  const envtestGeneric = (sources: Source[]) =>
    sources.filter(
      (f) => f.path.startsWith("packages/envtest/src/") && !MAY_NAME.some((r) => r.test(f.path)),
    );

  function unexpectedNames(sources: Source[]): string[] {
    const found = resourceNameLiterals(envtestGeneric(sources), plurals);
    const byFile = new Map<string, string[]>();
    for (const hit of found) {
      const file = hit.slice(0, hit.indexOf(":"));
      byFile.set(file, [...(byFile.get(file) ?? []), hit]);
    }
    return [...byFile].flatMap(([file, hits]) => (hits.length === (KNOWN[file] ?? 0) ? [] : hits));
  }

  it("appear in envtest only in resource definitions and the layers kube names them in", () => {
    expect(plurals.size).toBeGreaterThan(50);
    expect(unexpectedNames(files)).toEqual([]);
  });

  it("fail when planted in a generic layer", () => {
    const planted = [
      plant("packages/envtest/src/rest/planted.ts", 'if (info.resource === "pods") run();\n'),
      plant("packages/envtest/src/http/planted.ts", 'const k = "apps/deployments";\n'),
      plant("packages/envtest/src/store/planted.ts", "const k = `pods/eviction`;\n"),
      plant("packages/envtest/src/registry/core/planted.ts", 'const k = "pods";\n'),
      plant("packages/envtest/src/rest/fine.ts", 'const k = "status";\n'),
    ];
    expect(unexpectedNames(planted)).toEqual([
      'packages/envtest/src/rest/planted.ts:1 "pods"',
      'packages/envtest/src/http/planted.ts:1 "apps/deployments"',
      'packages/envtest/src/store/planted.ts:1 "pods/eviction"',
    ]);
  });
});

describe("the store", () => {
  // Only the REST verbs commit objects; controllers, admission and the registry write through
  // the internal client (client/), so every write passes admission, validation and managedFields.
  const WRITERS = ["envtest/rest", "envtest/store"];

  it("is written only by the REST verbs", () => {
    expect(storeWrites(files, WRITERS)).toEqual([]);
  });

  it("fails on a controller that commits to it", () => {
    const planted = plant(
      "packages/envtest/src/controllers/planted.ts",
      'this.store.commit(bucket, "MODIFIED", next, this.store.nextRV());\n',
    );
    expect(storeWrites([planted], WRITERS)).toEqual([
      'packages/envtest/src/controllers/planted.ts:1 this.store.commit(bucket, "MODIFIED", next, this.store.nextRV())',
      "packages/envtest/src/controllers/planted.ts:1 this.store.nextRV()",
    ]);
  });
});
