/**
 * The whole user path, end to end: `opgen init` (with npm install of the local packages), `create
 * api`, `npm run build` (manifests + tsc), `manifests --check`, `kubectl kustomize config/default`
 * and the project's own `npm test`; then a second API version and the webhooks (`create api
 * --version v2`, `create webhook`), the AppCluster tutorial (examples/appcluster-operator) laid over
 * the scaffold, tested, and run with `opgen dev` while the real kubectl drives it, as `npm run demo`;
 * `npm run build-installer`'s dist/install.yaml applied to `opgen envtest --simulate --auth rbac`
 * (with cert-manager's CRDs) and deleted.
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { CLI, REPO_ROOT, runCli, runOrThrow, scaffoldAppCluster, tempDir } from "../helpers/cli.js";
import { FIXTURES_DIR } from "../helpers/fixtures.js";

const dir = join(tempDir("opgen-e2e-"), "appcluster-operator");

const sh = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  runOrThrow(dir, cmd, args, env);

describe("a generated project", () => {
  beforeAll(async () => {
    await scaffoldAppCluster(dir);
  }, 240_000);

  it("builds: manifests are generated and the TypeScript compiles", async () => {
    await sh("npm", ["run", "build"]);
    const crd = readFileSync(join(dir, "config/crd/bases/demo.my.domain_appclusters.yaml"), "utf8");
    expect(crd).toContain("kind: CustomResourceDefinition");
    expect(crd).toContain("name: appclusters.demo.my.domain");
    const role = readFileSync(join(dir, "config/rbac/role.yaml"), "utf8");
    expect(role).toContain("appclusters/status");
    await sh("node", [CLI, "manifests", "--check"]);
  }, 120_000);

  it("renders with kubectl kustomize config/default", async () => {
    const { stdout } = await sh("kubectl", ["kustomize", "config/default"]);
    const kinds = parseAllDocuments(stdout).map((d) => {
      const o = d.toJS();
      return `${o.kind}/${o.metadata.name}`;
    });
    expect(kinds).toEqual(
      expect.arrayContaining([
        "Namespace/appcluster-operator-system",
        "CustomResourceDefinition/appclusters.demo.my.domain",
        "ServiceAccount/appcluster-operator-controller-manager",
        "ClusterRole/appcluster-operator-manager-role",
        "ClusterRoleBinding/appcluster-operator-manager-rolebinding",
        "Role/appcluster-operator-leader-election-role",
        "Deployment/appcluster-operator-controller-manager",
        "Service/appcluster-operator-controller-manager-metrics-service",
      ]),
    );
  });

  it("builds dist/install.yaml with Kubebuilder's default image when IMG is unset", async () => {
    const { stdout } = await sh("npm", ["run", "build-installer"], { IMG: "" });
    expect(stdout).toContain("Wrote dist/install.yaml (image controller:latest)");
    const docs = parseAllDocuments(readFileSync(join(dir, "dist/install.yaml"), "utf8"));
    const deployment = docs.map((d) => d.toJS()).find((o) => o.kind === "Deployment");
    expect(deployment.spec.template.spec.containers[0].image).toBe("controller:latest");
  }, 60_000);

  it("passes its own scaffolded test", async () => {
    const { all } = await sh("npm", ["test"]);
    expect(all).toMatch(/1 passed/);
  }, 120_000);

  describe("with v2, the webhooks and the AppCluster tutorial laid over the scaffold", () => {
    beforeAll(async () => {
      const kind = ["--group", "demo", "--kind", "AppCluster"];
      for (const args of [
        ["create", "api", ...kind, "--version", "v2", "--controller=false"],
        ["create", "webhook", ...kind, "--version", "v1", "--defaulting"],
        ["create", "webhook", ...kind, "--version", "v1", "--programmatic-validation"],
        ["create", "webhook", ...kind, "--version", "v1", "--conversion", "--spoke", "v2"],
      ]) {
        const result = await runCli(args, dir);
        expect(result.exitCode, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      }
      cpSync(join(REPO_ROOT, "examples/appcluster-operator/src"), join(dir, "src"), {
        recursive: true,
      });
      cpSync(join(REPO_ROOT, "examples/appcluster-operator/test"), join(dir, "test"), {
        recursive: true,
      });
      cpSync(join(REPO_ROOT, "examples/appcluster-operator/config"), join(dir, "config"), {
        recursive: true,
      });
      await sh("npm", ["run", "build"]);
    }, 120_000);

    it("generates the pods permission and the validation from the markers", () => {
      const role = readFileSync(join(dir, "config/rbac/role.yaml"), "utf8");
      expect(role).toMatch(/- ""\n {2}resources:\n {2}- pods\n/);
      const crd = readFileSync(
        join(dir, "config/crd/bases/demo.my.domain_appclusters.yaml"),
        "utf8",
      );
      const versions = parse(crd).spec.versions;
      // v1 is stored (@storageversion, the conversion hub); v2 is served and converted.
      expect(versions.map((v: { name: string; storage: boolean }) => [v.name, v.storage])).toEqual([
        ["v1", true],
        ["v2", false],
      ]);
      expect(versions[1].schema.openAPIV3Schema.properties.spec.properties).toHaveProperty(
        "replicas",
      );
      const version = versions[0];
      expect(version.schema.openAPIV3Schema.properties.spec.properties.size).toEqual({
        description: "size is the number of pods to run (the desired state).",
        format: "int32",
        minimum: 0,
        type: "integer",
      });
      expect(version.additionalPrinterColumns.map((c: { name: string }) => c.name)).toEqual([
        "Size",
        "Ready",
        "Age",
      ]);
    });

    it("generates the webhook configurations and renders them with cert-manager", async () => {
      const webhooks = parseAllDocuments(
        readFileSync(join(dir, "config/webhook/manifests.yaml"), "utf8"),
      ).map((d) => d.toJS());
      expect(
        webhooks.map((w) => [w.kind, w.webhooks.map((h: { name: string }) => h.name)]),
      ).toEqual([
        ["MutatingWebhookConfiguration", ["mappcluster-v1.kb.io"]],
        ["ValidatingWebhookConfiguration", ["vappcluster-v1.kb.io"]],
      ]);
      const { stdout } = await sh("kubectl", ["kustomize", "config/default"]);
      const docs = parseAllDocuments(stdout).map((d) => d.toJS());
      const crd = docs.find((d) => d.kind === "CustomResourceDefinition");
      expect(crd.spec.conversion.strategy).toBe("Webhook");
      expect(crd.metadata.annotations["cert-manager.io/inject-ca-from"]).toBeDefined();
      expect(docs.map((d) => d.kind)).toEqual(
        expect.arrayContaining([
          "MutatingWebhookConfiguration",
          "ValidatingWebhookConfiguration",
          "Certificate",
          "Issuer",
        ]),
      );
    });

    it("builds dist/install.yaml (IMG set) that applies to envtest and deletes cleanly", async () => {
      const { stdout } = await sh("npm", ["run", "build-installer"], { IMG: "example.com/op:v1" });
      expect(stdout).toContain("Wrote dist/install.yaml (image example.com/op:v1)");
      const installer = readFileSync(join(dir, "dist/install.yaml"), "utf8");
      // The image edit stays in config/manager, so config/default renders what was written.
      expect(
        parse(readFileSync(join(dir, "config/manager/kustomization.yaml"), "utf8")).images,
      ).toEqual([{ name: "controller", newName: "example.com/op", newTag: "v1" }]);
      const rendered = await sh("kubectl", ["kustomize", "config/default"]);
      expect(installer).toBe(`${rendered.stdout}\n`);
      const objects = parseAllDocuments(installer).map((d) => d.toJS());
      const p = "appcluster-operator-";
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(
        expect.arrayContaining([
          `Namespace/${p}system`,
          "CustomResourceDefinition/appclusters.demo.my.domain",
          `ServiceAccount/${p}controller-manager`,
          `ClusterRole/${p}manager-role`,
          `ClusterRoleBinding/${p}manager-rolebinding`,
          `Deployment/${p}controller-manager`,
          `Service/${p}webhook-service`,
          `MutatingWebhookConfiguration/${p}mutating-webhook-configuration`,
          `ValidatingWebhookConfiguration/${p}validating-webhook-configuration`,
          `Certificate/${p}serving-cert`,
          `Issuer/${p}selfsigned-issuer`,
        ]),
      );
      const deployment = objects.find((o) => o.kind === "Deployment");
      expect(deployment.spec.template.spec.containers[0].image).toBe("example.com/op:v1");

      // A cluster with cert-manager's CRDs, as the webhooks' Certificate and Issuer need.
      const cluster = tempDir("opgen-installer-");
      const kubeconfig = join(cluster, "kc.yaml");
      const envtest = execa(
        "node",
        [CLI, "envtest", "--simulate", "--auth", "rbac", "--kubeconfig", kubeconfig],
        { cwd: cluster, all: true, reject: false, env: { OPGEN_DEBUG: "" } },
      );
      envtest.catch(() => {});
      let output = "";
      envtest.all!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      const kubectl = (args: string[]) =>
        execa("kubectl", ["--kubeconfig", kubeconfig, ...args], { cwd: dir, reject: false });
      try {
        for (let i = 0; i < 300 && !output.includes("envtest ready"); i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(output).toContain("envtest ready");
        const certManager = await kubectl(["create", "-f", join(FIXTURES_DIR, "cert-manager")]);
        expect(certManager.exitCode, certManager.stderr).toBe(0);
        const established = await kubectl([
          "wait",
          "--for=condition=Established",
          "crd/certificates.cert-manager.io",
          "crd/issuers.cert-manager.io",
        ]);
        expect(established.exitCode, established.stderr).toBe(0);
        const apply = await kubectl(["apply", "-f", "dist/install.yaml"]);
        expect(apply.stderr).toBe("");
        expect(apply.exitCode).toBe(0);
        expect(apply.stdout.split("\n")).toHaveLength(objects.length);
        const image = await kubectl([
          "get",
          "-n",
          `${p}system`,
          `deployment/${p}controller-manager`,
          "-o",
          "jsonpath={.spec.template.spec.containers[0].image}",
        ]);
        expect(image.stdout).toBe("example.com/op:v1");
        const present = await kubectl(["get", "-f", "dist/install.yaml", "-o", "name"]);
        expect(present.exitCode, present.stderr).toBe(0);
        expect(present.stdout.split("\n")).toHaveLength(objects.length);

        // The Namespace comes first in the file: envtest's namespace controller may empty it before
        // kubectl deletes its objects one by one (kube's may too), hence --ignore-not-found, as
        // the scaffold's `npm run undeploy` and the docs use it.
        const remove = await kubectl(["delete", "--ignore-not-found", "-f", "dist/install.yaml"]);
        expect(remove.stderr).toBe("");
        expect(remove.exitCode).toBe(0);
        expect(remove.stdout).toContain(`namespace "${p}system" deleted`);
        expect(remove.stdout).toContain(
          'customresourcedefinition.apiextensions.k8s.io "appclusters.demo.my.domain" deleted',
        );
        const left = await kubectl([
          "get",
          "-f",
          "dist/install.yaml",
          "--ignore-not-found",
          "-o",
          "name",
        ]);
        expect(left.stderr).toBe("");
        expect(left.stdout).toBe("");
      } finally {
        envtest.kill("SIGTERM");
        const result = await envtest;
        expect(result.exitCode, output).toBe(0);
      }
    }, 120_000);

    it("passes the tutorial's tests (controller, webhooks and conversion on envtest)", async () => {
      const { all } = await sh("npm", ["test"]);
      expect(all).toMatch(/11 passed/);
    }, 120_000);

    it("runs under opgen dev while kubectl drives it", async () => {
      const kubeconfig = join(dir, "envtest.kubeconfig");
      const dev = execa("node", [CLI, "dev", "--no-build", "--kubeconfig", kubeconfig], {
        cwd: dir,
        all: true,
        reject: false,
      });
      let output = "";
      dev.all!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      try {
        for (let i = 0; i < 300 && !output.includes("webhooks ready"); i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(output).toContain("envtest ready");
        expect(output).toContain("webhooks ready");
        const env = { KUBECONFIG: kubeconfig };
        const tooBig = await execa("kubectl", ["apply", "-f", "-"], {
          cwd: dir,
          reject: false,
          env: { ...env, CI: "true" },
          input: JSON.stringify({
            apiVersion: "demo.my.domain/v1",
            kind: "AppCluster",
            metadata: { namespace: "default", name: "too-big" },
            spec: { size: 20 },
          }),
        });
        expect(tooBig.exitCode).not.toBe(0);
        expect(tooBig.stderr).toContain(
          'The AppCluster "too-big" is invalid: spec.size: Invalid value: 20: must be no more than 10',
        );
        await sh("kubectl", ["apply", "-k", "config/samples"], env);
        for (const [name, ready] of [
          ["appcluster-sample", 2],
          ["appcluster-sample-v2", 3],
        ])
          await sh(
            "kubectl",
            [
              "wait",
              `--for=jsonpath={.status.ready}=${ready}`,
              `appclusters.v1.demo.my.domain/${name}`,
              "--timeout=60s",
            ],
            env,
          );
        const get = async (resource: string, name: string, path: string) =>
          (await sh("kubectl", ["get", resource, name, "-o", `jsonpath=${path}`], env)).stdout;
        // The defaulting webhook labelled the size-2 sample; the conversion webhook serves both ways.
        expect(
          await get(
            "appclusters.v1.demo.my.domain",
            "appcluster-sample",
            "{.metadata.labels.tier}",
          ),
        ).toBe("web");
        expect(
          await get(
            "appclusters.v1.demo.my.domain",
            "appcluster-sample-v2",
            "{.apiVersion} {.spec}",
          ),
        ).toBe('demo.my.domain/v1 {"size":3}');
        expect(
          await get("appclusters.v2.demo.my.domain", "appcluster-sample", "{.apiVersion} {.spec}"),
        ).toBe('demo.my.domain/v2 {"replicas":2}');
        const { stdout: pods } = await sh(
          "kubectl",
          ["get", "pods", "-l", "app=appcluster-sample", "-o", "name"],
          env,
        );
        expect(pods.trim().split("\n")).toHaveLength(2);
        const { stdout: table } = await sh(
          "kubectl",
          ["get", "appclusters.v1.demo.my.domain"],
          env,
        );
        expect(table).toMatch(/^NAME\s+SIZE\s+READY\s+AGE\n/);
        expect(table).toMatch(/appcluster-sample\s+2\s+2\s+/);
      } finally {
        dev.kill("SIGINT");
        const result = await dev;
        // opgen dev exits 0 only if the operator drained and exited 0 on its SIGTERM.
        expect(result.exitCode, output).toBe(0);
        expect(output).toContain("Manager stopped");
      }
    }, 120_000);
  });
});
