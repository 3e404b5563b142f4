/**
 * `opgen dev` on a project with webhooks, the local loop without cert-manager: a scaffolded project
 * (`create api` v1 and v2, `create webhook --defaulting --programmatic-validation --conversion`)
 * with a tiny defaulter, validator and conversion written into the generated files, its manifests
 * generated and its TypeScript compiled; opgen dev runs in a process group of its own and the real
 * kubectl drives it: a denial, a defaulted label, a v2 object read as v1. The project links the
 * repository's node_modules (the same packages `opgen init` would install from file: specs), so
 * no npm install is needed and the test stays quick.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli, tempDir } from "../helpers/cli.js";
import { startDev } from "../helpers/dev.js";

const RUNTIME = join(REPO_ROOT, "packages/runtime/dist/index.js");
const TSC = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
// Start-up of envtest and the operator takes a second alone, several on a busy 2-core CI machine.
const SLOW = 90_000;

/** Replaces `from` (which must be there) in a generated file. */
function edit(dir: string, path: string, from: string, to: string): void {
  const file = join(dir, path);
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${path} no longer contains:\n${from}`);
  writeFileSync(file, text.replace(from, to));
}

const appCluster = (version: string, name: string, spec: Record<string, string>) =>
  JSON.stringify({
    apiVersion: `demo.example.com/${version}`,
    kind: "AppCluster",
    metadata: { name },
    spec,
  });

describe("opgen dev on a project with webhooks", () => {
  const dir = join(tempDir("opgen-dev-webhooks-"), "webhook-dev");

  async function ok(args: string[]) {
    const result = await runCli(args, dir);
    expect(result.exitCode, `${args.join(" ")}: ${result.stderr}`).toBe(0);
  }

  async function kubectl(args: string[], input?: string) {
    return execa("kubectl", ["--kubeconfig", join(dir, "kc.yaml"), ...args], {
      cwd: dir,
      reject: false,
      ...(input !== undefined ? { input } : {}),
    });
  }

  beforeAll(async () => {
    mkdirSync(dir);
    await ok(["init", "--domain", "example.com", "--license", "none", "--skip-install"]);
    const demo = ["--group", "demo", "--kind", "AppCluster"];
    await ok(["create", "api", ...demo, "--version", "v1"]);
    await ok(["create", "api", ...demo, "--version", "v2", "--controller=false"]);
    await ok([
      "create",
      "webhook",
      ...demo,
      "--version",
      "v1",
      "--defaulting",
      "--programmatic-validation",
      "--conversion",
      "--spoke",
      "v2",
    ]);
    symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");

    // The defaulter labels tier=web; the validator denies foo=forbidden with a plain error (403)
    // and foo=invalid with a 422 naming the field; v2 calls v1's foo bar.
    const hook = "src/webhooks/v1/appcluster.webhook.ts";
    edit(dir, hook, "  webhookFor,\n} from", "  errors,\n  field,\n  webhookFor,\n} from");
    edit(
      dir,
      hook,
      "    // TODO(user): fill in your defaulting logic, e.g.\n",
      '    obj.metadata = { ...obj.metadata, labels: { tier: "web", ...obj.metadata?.labels } };\n',
    );
    edit(
      dir,
      hook,
      "    // TODO(user): fill in your validation logic upon object creation, e.g. with `errors` and\n",
      `    if (obj.spec?.foo === "forbidden") throw new Error("spec.foo: forbidden is not allowed");
    if (obj.spec?.foo === "invalid") {
      throw errors.invalid("AppCluster", "demo.example.com", obj.metadata?.name ?? "", [
        field.invalid("spec.foo", obj.spec.foo, "must not be invalid"),
      ]);
    }
`,
    );
    edit(dir, "src/api/v2/appcluster.types.ts", "  foo?: string;", "  bar?: string;");
    const conversion = "src/api/v2/appcluster.conversion.ts";
    edit(dir, conversion, "spec: { ...src.spec },", "spec: { foo: src.spec?.bar },");
    edit(dir, conversion, "spec: { ...hub.spec },", "spec: { bar: hub.spec?.foo },");

    await ok(["manifests"]);
    const build = await execa("node", [TSC, "-p", "tsconfig.json"], {
      cwd: dir,
      reject: false,
      all: true,
    });
    expect(build.exitCode, build.all).toBe(0);
  }, 120_000);

  it(
    "serves the webhooks from the operator: the first kubectl apply after the kubeconfig appears is admitted; denials, defaults and conversion; Ctrl-C exits 0",
    async () => {
      // A kubeconfig of an earlier run must not be mistaken for this one's.
      rmSync(join(dir, "kc.yaml"), { force: true });
      const dev = startDev(dir, { timeoutMs: 60_000 });
      // The kubeconfig appears only once the operator serves its webhooks: the very first
      // request goes through the mutating webhook, with no retry.
      await dev.waitForFile(join(dir, "kc.yaml"));
      const first = await kubectl(["create", "-f", "-"], appCluster("v1", "first", { foo: "x" }));
      expect(first.exitCode, first.stderr).toBe(0);
      const firstStored = JSON.parse(
        (await kubectl(["get", "appclusters.v1.demo.example.com/first", "-o", "json"])).stdout,
      );
      expect(firstStored.metadata.labels).toEqual({ tier: "web" });

      const [, port] = await dev.waitFor(
        /^webhooks ready at https:\/\/127\.0\.0\.1:(\d+) \(mutating-webhook-configuration, validating-webhook-configuration, conversion of appclusters\.demo\.example\.com\)$/m,
      );
      // The operator serves on envtest's certificate, on a port of its own behind opgen dev's
      // relay (the port the configurations call), with dev's metrics flags.
      const [, operatorPort, certDir] = (await dev.waitFor(
        /Serving webhook server\thost="127\.0\.0\.1" port=(\d+) certDir="([^"]+)"/,
      )) as [string, string, string];
      expect(operatorPort).not.toBe(port);
      expect(existsSync(join(certDir, "tls.crt"))).toBe(true);

      const installed = await kubectl([
        "get",
        "validatingwebhookconfiguration/validating-webhook-configuration",
        "-o",
        "jsonpath={.webhooks[0].clientConfig.url}",
      ]);
      expect(installed.stdout).toBe(
        `https://127.0.0.1:${port}/validate-demo-example-com-v1-appcluster`,
      );

      const denied = await kubectl(
        ["create", "-f", "-"],
        appCluster("v1", "bad", { foo: "forbidden" }),
      );
      expect(denied.exitCode).toBe(1);
      expect(denied.stderr.trim()).toBe(
        'Error from server (Forbidden): error when creating "STDIN": admission webhook "vappcluster-v1.kb.io" denied the request: spec.foo: forbidden is not allowed',
      );
      const invalid = await kubectl(
        ["create", "-f", "-"],
        appCluster("v1", "bad", { foo: "invalid" }),
      );
      expect(invalid.exitCode).toBe(1);
      expect(invalid.stderr).toContain('spec.foo: Invalid value: "invalid": must not be invalid');
      // A v2 object reaches the v1 webhooks converted (matchPolicy Equivalent).
      const deniedV2 = await kubectl(
        ["create", "-f", "-"],
        appCluster("v2", "bad", { bar: "forbidden" }),
      );
      expect(deniedV2.stderr).toContain(
        'admission webhook "vappcluster-v1.kb.io" denied the request',
      );

      const created = await kubectl(
        ["create", "-f", "-"],
        appCluster("v2", "good", { bar: "fine" }),
      );
      expect(created.exitCode, created.stderr).toBe(0);
      const v1 = JSON.parse(
        (await kubectl(["get", "appclusters.v1.demo.example.com/good", "-o", "json"])).stdout,
      );
      expect(v1.spec).toEqual({ foo: "fine" });
      expect(v1.metadata.labels).toEqual({ tier: "web" });
      const v2 = JSON.parse(
        (await kubectl(["get", "appclusters.v2.demo.example.com/good", "-o", "json"])).stdout,
      );
      expect(v2.apiVersion).toBe("demo.example.com/v2");
      expect(v2.spec).toEqual({ bar: "fine" });

      dev.signalGroup("SIGINT");
      const result = await dev.proc;
      expect(result.exitCode, dev.output()).toBe(0);
      expect(dev.output()).toContain("Manager stopped");
      expect(dev.output()).not.toMatch(/^opgen: /m);
      // The serving certificate goes with the API server.
      expect(existsSync(certDir)).toBe(false);
    },
    SLOW,
  );

  it(
    "with ENABLE_WEBHOOKS=false installs none, and the operator serves none",
    async () => {
      const dev = startDev(dir, { env: { ENABLE_WEBHOOKS: "false" }, timeoutMs: 60_000 });
      await dev.waitFor("webhooks: not installed (ENABLE_WEBHOOKS=false)");
      await dev.waitFor(/Starting workers\tcontroller="appcluster"/);
      const configs = await kubectl([
        "get",
        "mutatingwebhookconfigurations,validatingwebhookconfigurations",
        "-o",
        "name",
      ]);
      expect(configs.stdout.trim()).toBe("");
      const created = await kubectl(
        ["create", "-f", "-"],
        appCluster("v1", "free", { foo: "forbidden" }),
      );
      expect(created.exitCode, created.stderr).toBe(0);
      dev.signalGroup("SIGINT");
      const result = await dev.proc;
      expect(result.exitCode, dev.output()).toBe(0);
      expect(dev.output()).not.toContain("webhooks ready");
      expect(dev.output()).not.toContain("Serving webhook server");
    },
    SLOW,
  );
});

describe("opgen dev's webhook start-up failures exit 1 in one line, nothing left running", () => {
  /** A project whose operator would say it started (it must not be). */
  function project(resources = "[]"): string {
    const dir = tempDir("opgen-dev-webhooks-bad-");
    writeFileSync(
      join(dir, "PROJECT"),
      `domain: my.domain\nlayout:\n- typescript.opgen.io/v1\nprojectName: bad\nresources: ${resources}\nversion: '3'\n`,
    );
    mkdirSync(join(dir, "dist"));
    writeFileSync(
      join(dir, "dist/main.js"),
      `await import(${JSON.stringify(RUNTIME)}); console.log("operator started pid=" + process.pid); setInterval(() => {}, 1000);\n`,
    );
    return dir;
  }

  it("a webhook manifest that does not parse", async () => {
    const dir = project();
    mkdirSync(join(dir, "config/webhook"), { recursive: true });
    writeFileSync(join(dir, "config/webhook/manifests.yaml"), "webhooks: [unclosed\n");
    const dev = startDev(dir, { timeoutMs: 60_000 });
    const result = await dev.proc;
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toMatch(
      /^opgen: cannot read the webhook manifests: \S+config\/webhook\/manifests\.yaml: [^\n]+; fix the file \(or run opgen manifests\) and run opgen dev again$/,
    );
    expect(dev.output()).not.toContain("operator started");
  });

  it("webhooks in PROJECT without config/webhook/manifests.yaml", async () => {
    const dir = project(
      "\n- api:\n    crdVersion: v1\n    namespaced: true\n  domain: my.domain\n  group: demo\n  kind: AppCluster\n  path: src/api/v1\n  version: v1\n  webhooks:\n    defaulting: true\n    webhookVersion: v1",
    );
    const dev = startDev(dir, { timeoutMs: 60_000 });
    const result = await dev.proc;
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(
      "opgen: PROJECT declares webhooks for AppCluster v1 but config/webhook/manifests.yaml does not exist: run opgen manifests (or drop --no-build) and opgen dev again",
    );
    expect(dev.output()).not.toContain("operator started");
  });

  it("a webhook configuration the API server refuses", async () => {
    const dir = project();
    mkdirSync(join(dir, "config/webhook"), { recursive: true });
    writeFileSync(
      join(dir, "config/webhook/manifests.yaml"),
      "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: v\nwebhooks:\n- name: no-dots\n  clientConfig:\n    service: { name: s, namespace: system, path: /v }\n  admissionReviewVersions: [v1]\n  sideEffects: None\n",
    );
    const dev = startDev(dir, { timeoutMs: 60_000 });
    const result = await dev.proc;
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toMatch(/^opgen: envtest failed to start: [^\n]*no-dots[^\n]*$/);
    expect(dev.output()).not.toContain("operator started");
  });

  it("an operator that does not serve a webhook its configurations call: no kubeconfig, no ready", async () => {
    const dir = project();
    // Serves the defaulting webhook only; the configurations also call a validating one.
    writeFileSync(
      join(dir, "dist/main.js"),
      `const { createManager, defineKind, managerOptionsFromArgs, setupSignalHandler, webhookFor } = await import(${JSON.stringify(RUNTIME)});
const AppCluster = defineKind({ group: "demo.my.domain", version: "v1", kind: "AppCluster", plural: "appclusters", namespaced: true });
const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: "bad" });
webhookFor(mgr, AppCluster).withDefaulter({ default() {} }).complete();
console.log("operator started pid=" + process.pid);
await mgr.start(setupSignalHandler());
`,
    );
    mkdirSync(join(dir, "config/webhook"), { recursive: true });
    const hook = (kind: string, name: string, path: string) =>
      `apiVersion: admissionregistration.k8s.io/v1\nkind: ${kind}\nmetadata:\n  name: ${kind.toLowerCase()}\nwebhooks:\n- name: ${name}\n  clientConfig:\n    service: { name: webhook-service, namespace: system, path: ${path} }\n  rules: [{ apiGroups: [demo.my.domain], apiVersions: [v1], operations: [CREATE], resources: [appclusters] }]\n  admissionReviewVersions: [v1]\n  sideEffects: None\n`;
    writeFileSync(
      join(dir, "config/webhook/manifests.yaml"),
      `${hook("MutatingWebhookConfiguration", "mappcluster-v1.kb.io", "/mutate-demo-my-domain-v1-appcluster")}---\n${hook("ValidatingWebhookConfiguration", "vappcluster-v1.kb.io", "/validate-demo-my-domain-v1-appcluster")}`,
    );
    const dev = startDev(dir, { timeoutMs: 60_000 });
    const result = await dev.proc;
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split("\n").at(-1)).toBe(
      "opgen: the operator's webhook server does not serve /validate-demo-my-domain-v1-appcluster (vappcluster-v1.kb.io), so calls to it fail: register that webhook in src/main.ts (its setup<Kind>WebhookWithManager(mgr)), or run opgen manifests if it was removed",
    );
    expect(result.stdout).not.toMatch(/ready/);
    expect(existsSync(join(dir, "kc.yaml"))).toBe(false);
    const pid = Number((await dev.waitFor(/operator started pid=(\d+)/))[1]);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
