/**
 * `opgen dev` reloads: a change under src/ rebuilds the project, applies the regenerated CRDs and
 * restarts the operator; a failed build keeps the running operator; a webhook call made while the
 * operator restarts waits for the new process. The project's build is a copy of src/main.js to
 * dist/ (so no npm install), its operator the scaffolded main.ts on the built runtime, and a CRD
 * file the build rewrites from src/crd.yaml as `opgen manifests` would.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../helpers/cli.js";
import { startDev } from "../helpers/dev.js";

const RUNTIME = join(REPO_ROOT, "packages/runtime/dist/index.js");

const main = (version: string) => `
const { createManager, managerOptionsFromArgs, setupSignalHandler, kinds } = await import(${JSON.stringify(RUNTIME)});
const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: "dev-reload" });
mgr.controller(kinds.ConfigMap).complete({ async reconcile() { return {}; } });
void mgr.elected.then(() => console.log("operator ready pid=" + process.pid + " version=${version}"));
await mgr.start(setupSignalHandler());
`;

const crd = (props: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gizmos.dev.example.com }
spec:
  group: dev.example.com
  scope: Namespaced
  names: { plural: gizmos, kind: Gizmo }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { ${props} } }
`;

// The build: src/main.js to dist/, src/crd.yaml to config/crd/bases; "fail" in main.js fails it.
const BUILD = `
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
const src = readFileSync("src/main.js", "utf8");
if (src.includes("fail")) { console.error("build.mjs: src/main.js does not compile"); process.exit(1); }
mkdirSync("dist", { recursive: true });
writeFileSync("dist/main.js", src);
mkdirSync("config/crd/bases", { recursive: true });
writeFileSync("config/crd/bases/gizmos.yaml", readFileSync("src/crd.yaml", "utf8"));
`;

/** Gizmos get the label served=v<version> from a defaulting webhook of the operator. */
const MUTATING = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: { name: gizmo-defaulter }
webhooks:
  - name: mgizmo.dev.example.com
    clientConfig:
      service: { name: webhook-service, namespace: system, path: /mutate-dev-example-com-v1-gizmo }
    rules:
      - { apiGroups: [dev.example.com], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [gizmos] }
    admissionReviewVersions: [v1]
    sideEffects: None
    failurePolicy: Fail
`;

/**
 * An operator serving that webhook. With \`gate\`, the new process says it started (the file
 * gate-waiting) and waits for the file gate-open before its manager starts, so the test knows
 * when it runs but does not listen yet. No metrics server: the webhook server listens at once.
 */
const webhookMain = (version: string, gate = false) => `
const { createManager, defineKind, managerOptionsFromArgs, setupSignalHandler, webhookFor } = await import(${JSON.stringify(RUNTIME)});
const { existsSync, writeFileSync } = await import("node:fs");
const Gizmo = defineKind({ group: "dev.example.com", version: "v1", kind: "Gizmo", plural: "gizmos", namespaced: true });
const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), metricsBindAddress: "0", leaderElectionId: "dev-reload-webhooks" });
webhookFor(mgr, Gizmo).withDefaulter({
  default(ctx, obj) { obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, served: "v${version}" } }; },
}).complete();
${gate ? 'writeFileSync("gate-waiting", String(process.pid));\nwhile (!existsSync("gate-open")) await new Promise((r) => setTimeout(r, 20));' : ""}
await mgr.start(setupSignalHandler());
`;

function project(): string {
  const dir = tempDir("opgen-dev-reload-");
  writeFileSync(
    join(dir, "PROJECT"),
    "domain: my.domain\nlayout:\n- typescript.opgen.io/v1\nprojectName: dev-reload\nresources: []\nversion: '3'\n",
  );
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "dev-reload", private: true, scripts: { build: "node build.mjs" } }),
  );
  writeFileSync(join(dir, "build.mjs"), BUILD);
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/main.js"), main("1"));
  writeFileSync(join(dir, "src/crd.yaml"), crd("size: { type: integer }"));
  return dir;
}

describe("opgen dev reload", () => {
  it("rebuilds, applies the regenerated CRDs and restarts the operator on a change; keeps it when the build fails", async () => {
    const dir = project();
    const dev = startDev(dir, { args: ["--kubeconfig", "kc.yaml"], timeoutMs: 45_000 });
    const waitFor = (re: RegExp, from = 0) => dev.waitFor(re, { from });
    await waitFor(/watching src\//);
    const [, pid1] = await waitFor(/operator ready pid=(\d+) version=1/);
    const gizmo = (tier: string) =>
      `apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata: { name: g }\nspec: { tier: ${tier} }\n`;
    const strict = await execa(
      "kubectl",
      ["--kubeconfig", join(dir, "kc.yaml"), "create", "-f", "-"],
      { input: gizmo("web"), reject: false },
    );
    expect(strict.stderr).toMatch(/unknown field "spec\.tier"/);

    // A change: new operator code and a CRD field, applied without restarting the API server.
    let mark = dev.output().length;
    writeFileSync(
      join(dir, "src/crd.yaml"),
      crd("size: { type: integer }, tier: { type: string }"),
    );
    writeFileSync(join(dir, "src/main.js"), main("2"));
    await waitFor(/reloaded: the operator restarted with the new build/, mark);
    const [, pid2] = await waitFor(/operator ready pid=(\d+) version=2/, mark);
    expect(pid2).not.toBe(pid1);
    const created = await execa(
      "kubectl",
      ["--kubeconfig", join(dir, "kc.yaml"), "create", "-f", "-"],
      { input: gizmo("web"), reject: false },
    );
    expect(created.exitCode, created.stderr).toBe(0);

    // A build that fails keeps the running operator.
    mark = dev.output().length;
    writeFileSync(join(dir, "src/main.js"), `${main("3")}\n// fail\n`);
    await waitFor(/opgen: npm run build failed: the running operator keeps running/, mark);
    expect(dev.output().slice(mark)).not.toMatch(/operator ready/);
    expect(() => process.kill(Number(pid2), 0)).not.toThrow();

    dev.signalGroup("SIGINT");
    const result = await dev.proc;
    expect(result.exitCode, dev.output()).toBe(0);
  }, 120_000);

  it("holds a webhook call made while the operator restarts until the new process serves it", async () => {
    const dir = project();
    writeFileSync(join(dir, "src/main.js"), webhookMain("1"));
    mkdirSync(join(dir, "config/webhook"), { recursive: true });
    writeFileSync(join(dir, "config/webhook/manifests.yaml"), MUTATING);
    const kc = join(dir, "kc.yaml");
    const dev = startDev(dir, { args: ["--kubeconfig", "kc.yaml"], timeoutMs: 45_000 });
    const gizmo = (name: string) =>
      `apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata: { name: ${name}, namespace: default }\nspec: { size: 1 }\n`;
    const create = (name: string) =>
      execa("kubectl", ["--kubeconfig", kc, "create", "-f", "-"], {
        input: gizmo(name),
        reject: false,
      });
    const servedBy = async (name: string) =>
      (
        await execa("kubectl", [
          "--kubeconfig",
          kc,
          "get",
          "gizmo",
          name,
          "-o",
          "jsonpath={.metadata.labels.served}",
        ])
      ).stdout;

    await dev.waitForFile(kc);
    const first = await create("before");
    expect(first.exitCode, first.stderr).toBe(0);
    expect(await servedBy("before")).toBe("v1");

    // A save: the old process stops, the new one starts but does not listen until the gate opens.
    const mark = dev.output().length;
    writeFileSync(join(dir, "src/main.js"), webhookMain("2", true));
    await dev.waitForFile(join(dir, "gate-waiting"));
    const during = create("during");
    // The call reached opgen dev's relay, found no webhook server and waits: now let it listen.
    await dev.waitFor(
      "webhooks: a call to /mutate-dev-example-com-v1-gizmo waits for the operator's webhook server (up to 10 s)",
      { from: mark },
    );
    expect(existsSync(join(dir, "gate-open"))).toBe(false);
    writeFileSync(join(dir, "gate-open"), "");
    const admitted = await during;
    expect(admitted.exitCode, admitted.stderr).toBe(0);
    expect(await servedBy("during")).toBe("v2");
    await dev.waitFor(/reloaded: the operator restarted with the new build/, { from: mark });

    dev.signalGroup("SIGINT");
    const result = await dev.proc;
    expect(result.exitCode, dev.output()).toBe(0);
  }, 120_000);
});
