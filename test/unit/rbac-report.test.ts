/**
 * `--rbac-report` and its warnings: controllers found from their builder calls, kinds resolved
 * statically, and a warning for every kind an informer would need to list and watch but may not.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kinds } from "../../packages/runtime/src/api/kinds.js";
import { generateRbac } from "../../src/generators/rbac/index.js";
import { builtinKind } from "../../src/generators/rbac/report/builtin-kinds.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "opgen-rbac-report-"));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

async function run(files: Record<string, string>) {
  const result = await generateRbac({ projectDir: project(files), paths: ["src"], report: true });
  return { ...result, messages: result.diagnostics.map(formatDiagnostic) };
}

const GROUPVERSION = [
  "/**",
  " * @groupName demo.my.domain",
  " */",
  'export const GroupVersion = { group: "demo.my.domain", version: "v1" } as const;',
].join("\n");

const TYPES = [
  'import { defineKind } from "@opgen/runtime";',
  'import { GroupVersion } from "./groupversion.js";',
  "export interface AppCluster { metadata?: object }",
  "export const AppClusterKind = defineKind<AppCluster>({",
  "  group: GroupVersion.group,",
  "  version: GroupVersion.version,",
  '  kind: "AppCluster",',
  '  plural: "appclusters",',
  "  namespaced: true,",
  "});",
].join("\n");

const OWN_KIND_MARKERS = [
  " * @rbac groups=demo.my.domain,resources=appclusters,verbs=get;list;watch;create;update;patch;delete",
  " * @rbac groups=demo.my.domain,resources=appclusters/status,verbs=get;update;patch",
  " * @rbac groups=demo.my.domain,resources=appclusters/finalizers,verbs=update",
];

function controller(markers: string[], setup: string[], imports = ""): string {
  return [
    'import { kinds, type Manager } from "@opgen/runtime";',
    'import { AppClusterKind } from "../api/v1/appcluster.types.js";',
    imports,
    "",
    "/**",
    " * AppClusterReconciler reconciles AppCluster objects.",
    " *",
    ...markers,
    " */",
    "export class AppClusterReconciler {",
    "  async reconcile() {",
    "    return {};",
    "  }",
    "}",
    "",
    "export function setupAppClusterController(mgr: Manager): void {",
    ...setup,
    "}",
    "",
  ].join("\n");
}

function appProject(markers: string[], setup: string[], extra: Record<string, string> = {}) {
  return {
    "src/api/v1/groupversion.ts": GROUPVERSION,
    "src/api/v1/appcluster.types.ts": TYPES,
    "src/controllers/appcluster.controller.ts": controller(markers, setup),
    ...extra,
  };
}

const OWNS_PODS = [
  "  mgr",
  "    .controller(AppClusterKind)",
  "    .owns(kinds.Pod)",
  "    .complete(new AppClusterReconciler());",
];

describe("missing-permission warnings", () => {
  it("warns at .owns(kinds.Pod) when no marker grants pods", async () => {
    const { messages, files, report } = await run(appProject(OWN_KIND_MARKERS, OWNS_PODS));
    expect(messages).toEqual([
      "src/controllers/appcluster.controller.ts:21:6: warning: controller appcluster owns pods (group core) but ClusterRole manager-role does not grant list, watch on them; add @rbac groups=core,resources=pods,verbs=list;watch",
    ]);
    // A warning does not stop the role from being written.
    expect(files).toHaveLength(1);
    expect(report).toMatch(/^ {4}owns {8}pods \(group core\) +MISSING list, watch$/m);
    expect(report).toMatch(/^ {4}reconciles {2}appclusters \(group demo\.my\.domain\) {2}ok$/m);
    expect(report).toContain("1 missing permission (see the warnings)");
  });

  it("is silent once the marker is added, and names only the verb still missing", async () => {
    const granted = await run(
      appProject(
        [...OWN_KIND_MARKERS, " * @rbac groups=core,resources=pods,verbs=get;list;watch"],
        OWNS_PODS,
      ),
    );
    expect(granted.messages).toEqual([]);
    expect(granted.report).toContain("no missing permissions found");

    const onlyList = await run(
      appProject([...OWN_KIND_MARKERS, ' * @rbac groups="",resources=pods,verbs=list'], OWNS_PODS),
    );
    expect(onlyList.messages).toHaveLength(1);
    expect(onlyList.messages[0]).toContain(
      "does not grant watch on them; add @rbac groups=core,resources=pods,verbs=watch",
    );
  });

  it("counts * grants, but neither resourceNames-restricted rules nor namespaced Roles", async () => {
    const star = await run(
      appProject([...OWN_KIND_MARKERS, " * @rbac groups=*,resources=*,verbs=*"], OWNS_PODS),
    );
    expect(star.messages).toEqual([]);

    const named = await run(
      appProject(
        [
          ...OWN_KIND_MARKERS,
          " * @rbac groups=core,resources=pods,resourceNames=p1,verbs=list;watch",
        ],
        OWNS_PODS,
      ),
    );
    expect(named.messages).toHaveLength(1);

    const namespaced = await run(
      appProject(
        [
          ...OWN_KIND_MARKERS,
          " * @rbac groups=core,resources=pods,verbs=list;watch,namespace=apps",
        ],
        OWNS_PODS,
      ),
    );
    expect(namespaced.messages).toHaveLength(1);
    expect(namespaced.messages[0]).toContain(
      "(Role manager-role in namespace apps grants them only there, and the informer watches all namespaces)",
    );
  });

  it("warns for the reconciled kind itself and for watches(), and skips kinds it cannot see", async () => {
    const { messages, report } = await run(
      appProject(
        [],
        [
          "  const b = mgr.controller(AppClusterKind);",
          '  b.named("apps").watches(kinds.ConfigMap, () => []).watches(pickKind(), () => []);',
          "  b.complete(new AppClusterReconciler());",
        ],
        {},
      ),
    );
    expect(
      messages.map((m) => m.replace(/: warning: controller apps (\w+) (\S+).*/, " $1 $2")),
    ).toEqual([
      "src/controllers/appcluster.controller.ts:16:17 reconciles appclusters",
      "src/controllers/appcluster.controller.ts:17:19 watches configmaps",
    ]);
    expect(report).toContain("controller apps (src/controllers/appcluster.controller.ts:16:13)");
    expect(report).toContain("watches     pickKind()");
    expect(report).toContain("not statically visible; check by hand");
    expect(report).toContain("its class has no @rbac markers");
  });
});

describe("client calls of the reconciler", () => {
  function reconcilerProject(markers: string[], body: string[]) {
    return {
      "src/api/v1/groupversion.ts": GROUPVERSION,
      "src/api/v1/appcluster.types.ts": TYPES,
      "src/controllers/app.controller.ts": [
        'import { kinds, type Client, type Manager } from "@opgen/runtime";',
        'import { AppClusterKind } from "../api/v1/appcluster.types.js";',
        "/**",
        " * @rbac groups=demo.my.domain,resources=appclusters,verbs=get;list;watch",
        ...markers,
        " */",
        "export class AppReconciler {",
        "  constructor(private readonly client: Client) {}",
        "  async reconcile(req: { namespace: string; name: string }) {",
        ...body.map((line) => `    ${line}`),
        "  }",
        "}",
        "export function setup(mgr: Manager) {",
        "  mgr.controller(AppClusterKind).owns(kinds.Secret).complete(new AppReconciler(mgr.client));",
        "}",
      ].join("\n"),
    };
  }

  it("warns when a read of an unwatched kind or a delete has no verb, not for cached reads", async () => {
    const { messages, report } = await run(
      reconcilerProject(
        [" * @rbac groups=core,resources=secrets,verbs=list;watch"],
        [
          "await this.client.get(AppClusterKind, req);",
          "await this.client.list(kinds.Secret, { namespace: req.namespace });",
          'await this.client.get(kinds.ConfigMap, { namespace: req.namespace, name: "cfg" });',
          "await this.client.get(kinds.Secret, req, { uncached: true });",
          "await this.client.delete(kinds.Pod, req);",
          "const byKind = new Map();",
          "byKind.get(kinds.Node);",
        ],
      ),
    );
    expect(messages).toEqual([
      "src/controllers/app.controller.ts:12:23: warning: AppReconciler gets configmaps (group core) through the API server but no role grants get on them; add @rbac groups=core,resources=configmaps,verbs=get",
      "src/controllers/app.controller.ts:13:23: warning: AppReconciler gets secrets (group core) through the API server but no role grants get on them; add @rbac groups=core,resources=secrets,verbs=get",
      "src/controllers/app.controller.ts:14:23: warning: AppReconciler deletes pods (group core) through the API server but no role grants delete on them; add @rbac groups=core,resources=pods,verbs=delete",
    ]);
    expect(report).toMatch(/^ {4}gets +appclusters \(group demo\.my\.domain\) +from the cache/m);
    expect(report).toMatch(/^ {4}lists +secrets \(group core\) +from the cache/m);
    expect(report).toMatch(/^ {4}gets +configmaps \(group core\) +MISSING get +src\/controllers/m);
    expect(report).toContain("3 missing permissions (see the warnings)");
  });

  it("counts a namespaced Role for a direct call", async () => {
    const { messages } = await run(
      reconcilerProject(
        [
          " * @rbac groups=core,resources=secrets,verbs=list;watch",
          " * @rbac groups=core,resources=pods,verbs=delete,namespace=apps",
        ],
        ["await this.client.delete(kinds.Pod, req);"],
      ),
    );
    expect(messages).toEqual([]);
  });
});

describe("kind resolution", () => {
  const CONTROLLER_WITH = (imports: string, setup: string) =>
    [
      imports,
      "/** @rbac groups=demo.my.domain,resources=appclusters,verbs=list;watch */",
      "class R {}",
      `export function setup(mgr: any) { ${setup}; }`,
    ].join("\n");

  async function watchedResources(files: Record<string, string>): Promise<string[]> {
    const { report } = await run({
      "src/api/v1/groupversion.ts": GROUPVERSION,
      "src/api/v1/appcluster.types.ts": TYPES,
      ...files,
    });
    return [...report!.matchAll(/^ {4}(reconciles|owns|watches) +(\S+)/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
  }

  it("follows aliased and namespace imports of @opgen/runtime", async () => {
    expect(
      await watchedResources({
        "src/c.ts": CONTROLLER_WITH(
          'import { kinds as k } from "@opgen/runtime";\nimport * as rt from "@opgen/runtime";\nimport { AppClusterKind } from "./api/v1/appcluster.types.js";',
          'mgr.controller(AppClusterKind).owns(k.Deployment).owns(rt.kinds.Secret).owns(k["Job"]).complete(new R())',
        ),
      }),
    ).toEqual(["reconciles appclusters", "owns deployments", "owns secrets", "owns jobs"]);
  });

  it("follows re-exports, namespace imports of project modules and local defineKind consts", async () => {
    expect(
      await watchedResources({
        "src/api/v1/index.ts": 'export * from "./appcluster.types.js";',
        "src/api/index.ts": 'export { AppClusterKind as AppKind } from "./v1/index.js";',
        "src/c.ts": CONTROLLER_WITH(
          [
            'import { AppKind } from "./api/index.js";',
            'import * as v1 from "./api/v1/index.js";',
            'import { defineKind as dk } from "@opgen/runtime";',
            'const base = { group: "stable.example.com", version: "v1" } as const;',
            'const Widget = dk({ ...base, kind: "Widget", plural: "widgets", namespaced: true });',
          ].join("\n"),
          "mgr.controller(AppKind).owns(v1.AppClusterKind).watches(Widget, f).complete(new R())",
        ),
      }),
    ).toEqual(["reconciles appclusters", "owns appclusters", "watches widgets"]);
  });

  it("finds the reconciler class through a const and re-exports", async () => {
    const { report } = await run({
      "src/api/v1/groupversion.ts": GROUPVERSION,
      "src/api/v1/appcluster.types.ts": TYPES,
      "src/reconcilers/app.ts": [
        "/** @rbac groups=demo.my.domain,resources=appclusters,verbs=list;watch */",
        "export class AppReconciler {}",
      ].join("\n"),
      "src/reconcilers/index.ts": 'export * from "./app.js";',
      "src/setup.ts": [
        'import { AppClusterKind } from "./api/v1/appcluster.types.js";',
        'import { AppReconciler as R } from "./reconcilers/index.js";',
        "export function setup(mgr: any) {",
        "  const reconciler = new R();",
        "  mgr.controller(AppClusterKind).complete(reconciler);",
        "}",
      ].join("\n"),
    });
    expect(report).toContain("  reconciler AppReconciler (src/reconcilers/app.ts:2:1)");
    expect(report).toMatch(/ {6}demo\.my\.domain {2}appclusters {2}list, watch/);
    expect(report).not.toContain("markers outside classes");
  });

  it("ignores .controller() calls of other APIs", async () => {
    const { report } = await run({
      "src/server.ts": 'const app: any = {};\napp.controller("users").get("/", () => 1);\n',
    });
    expect(report).toContain("0 controllers");
  });

  it("does not guess past values computed at run time", async () => {
    expect(
      await watchedResources({
        "src/c.ts": CONTROLLER_WITH(
          'import { defineKind } from "@opgen/runtime";\nconst plural = process.env.PLURAL!;\nconst K = defineKind({ group: "g", version: "v1", kind: "K", plural, namespaced: true });',
          "mgr.controller(K).owns(other.kinds.Pod).complete(new R())",
        ),
      }),
    ).toEqual(["reconciles K", "owns other.kinds.Pod"]);
  });

  it("resolves every kind of @opgen/runtime's kinds as the runtime defines it", () => {
    for (const [name, k] of Object.entries(kinds)) {
      expect(builtinKind(name), name).toEqual({ group: k.group, kind: k.kind, plural: k.plural });
    }
    expect(builtinKind("Nope")).toBeUndefined();
  });
});

describe("the report", () => {
  it("lists each controller's reconciler, its grants by role, and markers outside classes", async () => {
    const { report } = await run(
      appProject(
        [...OWN_KIND_MARKERS, " * @rbac groups=core,resources=pods,verbs=get;list;watch"],
        OWNS_PODS,
        {
          "src/util/metrics.ts": [
            "/** @rbac urls=/metrics,verbs=get */",
            "/** @rbac groups=coordination.k8s.io,resources=leases,verbs=get;update,namespace=ops */",
            "export const x = 1;",
          ].join("\n"),
        },
      ),
    );
    expect(report).toBe(
      [
        "RBAC report: 6 @rbac markers in 2 files, 1 controller",
        "",
        "controller appcluster (src/controllers/appcluster.controller.ts:20:3)",
        "  reconciler AppClusterReconciler (src/controllers/appcluster.controller.ts:13:1)",
        "  its @rbac markers grant:",
        "    ClusterRole manager-role:",
        "      GROUPS          RESOURCES               VERBS",
        "      core            pods                    get, list, watch",
        "      demo.my.domain  appclusters             create, delete, get, list, patch, update, watch",
        "      demo.my.domain  appclusters/finalizers  update",
        "      demo.my.domain  appclusters/status      get, patch, update",
        "  informers need list, watch in ClusterRole manager-role:",
        "    reconciles  appclusters (group demo.my.domain)  ok",
        "    owns        pods (group core)                   ok",
        "",
        "markers outside classes in src/util/metrics.ts:",
        "  ClusterRole manager-role:",
        "    GROUPS               RESOURCES  VERBS",
        "    (non-resource URLs)  /metrics   get",
        "  Role manager-role in namespace ops:",
        "    GROUPS               RESOURCES  VERBS",
        "    coordination.k8s.io  leases     get, update",
        "",
        "no missing permissions found",
        "",
      ].join("\n"),
    );
  });
});
