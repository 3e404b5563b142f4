/**
 * `opgen init` and `opgen create api` through the built CLI: the files they write, their edits, and
 * every bad input failing with one line, a non-zero exit code and no file changed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { REPO_ROOT, runCli, snapshot, tempDir } from "../helpers/cli.js";

function expectOneLineFailure(
  result: { exitCode: number; stdout: string; stderr: string },
  message: RegExp,
) {
  expect(result.exitCode).not.toBe(0);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^opgen: /);
  expect(lines[0]).toMatch(message);
}

describe("opgen init", () => {
  let dir: string;
  beforeAll(async () => {
    dir = join(tempDir(), "appcluster-operator");
    mkdirSync(dir);
    mkdirSync(join(dir, ".git")); // dotfiles are allowed
    const result = await runCli(["init", "--domain", "example.com", "--skip-install"], dir);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  });

  it("writes the project layout Kubebuilder users know", () => {
    for (const file of [
      "PROJECT",
      "package.json",
      "tsconfig.json",
      "tsconfig.test.json",
      "vitest.config.ts",
      "test/typecheck.ts",
      "Dockerfile",
      ".dockerignore",
      ".gitignore",
      "README.md",
      ".github/workflows/ci.yml",
      "hack/boilerplate.ts.txt",
      "src/main.ts",
      "scripts/bundle.mjs",
      "scripts/build-installer.mjs",
      "config/default/kustomization.yaml",
      "config/default/metrics_service.yaml",
      "config/default/manager_metrics_patch.yaml",
      "config/default/cert_metrics_manager_patch.yaml",
      "config/manager/manager.yaml",
      "config/manager/kustomization.yaml",
      "config/rbac/kustomization.yaml",
      "config/rbac/role.yaml",
      "config/rbac/role_binding.yaml",
      "config/rbac/service_account.yaml",
      "config/rbac/leader_election_role.yaml",
      "config/rbac/leader_election_role_binding.yaml",
      "config/rbac/metrics_auth_role.yaml",
      "config/rbac/metrics_auth_role_binding.yaml",
      "config/rbac/metrics_reader_role.yaml",
      "config/prometheus/kustomization.yaml",
      "config/prometheus/monitor.yaml",
      "config/prometheus/monitor_tls_patch.yaml",
      "config/network-policy/kustomization.yaml",
      "config/network-policy/allow-metrics-traffic.yaml",
      "config/crd/kustomization.yaml",
      "config/samples/kustomization.yaml",
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
  });

  it("records the project in PROJECT", () => {
    const project = parse(readFileSync(join(dir, "PROJECT"), "utf8"));
    expect(project).toMatchObject({
      domain: "example.com",
      projectName: "appcluster-operator",
      layout: ["typescript.opgen.io/v1"],
      resources: [],
      version: "3",
    });
  });

  it("writes a package.json with the scripts and the local opgen packages", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    for (const script of [
      "build",
      "test",
      "manifests",
      "start",
      "dev",
      "install-crds",
      "uninstall-crds",
      "deploy",
      "docker-build",
    ]) {
      expect(pkg.scripts[script], script).toBeTypeOf("string");
    }
    expect(pkg.dependencies["@opgen/runtime"]).toMatch(/^file:.*packages\/runtime$/);
    expect(pkg.devDependencies["@opgen/envtest"]).toMatch(/^file:.*packages\/envtest$/);
    expect(pkg.devDependencies.opgen).toMatch(/^file:/);
    expect(pkg.type).toBe("module");
    expect(pkg.engines.node).toBe("^20.19.0 || >=22.12.0");
  });

  it("honours --runtime-spec and the environment overrides", async () => {
    const other = tempDir();
    const result = await runCli(
      ["init", "--skip-install", "--runtime-spec", "^9.9.9", "--license", "none"],
      other,
      { OPGEN_ENVTEST_SPEC: "1.2.3", OPGEN_CLI_SPEC: "~1.0.0" },
    );
    expect(result.exitCode).toBe(0);
    const pkg = JSON.parse(readFileSync(join(other, "package.json"), "utf8"));
    expect(pkg.dependencies["@opgen/runtime"]).toBe("^9.9.9");
    expect(pkg.devDependencies["@opgen/envtest"]).toBe("1.2.3");
    expect(pkg.devDependencies.opgen).toBe("~1.0.0");
    expect(pkg.license).toBe("UNLICENSED");
    expect(readFileSync(join(other, "src/main.ts"), "utf8")).not.toContain("Copyright");
  });

  it("writes a CI workflow that checks manifests, builds and tests on the LTS Node lines", () => {
    const workflow = parse(readFileSync(join(dir, ".github/workflows/ci.yml"), "utf8"));
    expect(workflow.jobs.test.strategy.matrix["node-version"]).toEqual([22, 24]);
    const steps = workflow.jobs.test.steps;
    expect(steps[1].with["node-version"]).toBe("${{ matrix.node-version }}");
    expect(steps.map((s: { run?: string }) => s.run).filter(Boolean)).toEqual([
      "npm ci",
      "npx opgen manifests --check",
      "npm run build",
      "npm run bundle",
      "npm test",
    ]);
  });

  it("builds a non-root image of the bundled operator on an LTS Node", () => {
    const dockerfile = readFileSync(join(dir, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^ARG NODE_VERSION=22$/m);
    expect(dockerfile).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS build$/m);
    expect(dockerfile).toMatch(/^RUN npm run bundle$/m);
    const final = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(final).toMatch(/^FROM gcr\.io\/distroless\/nodejs\$\{NODE_VERSION\}-debian12:nonroot$/m);
    // One bundle folder ships, no node_modules (test/e2e/bundle.test.ts runs exactly that).
    expect(final.match(/^COPY .*$/gm)).toEqual(["COPY --from=build /workspace/dist/bundle ./"]);
    expect(final).toMatch(/^USER 65532:65532$/m);
    expect(final).toMatch(
      /^ENTRYPOINT \["\/nodejs\/bin\/node", "--enable-source-maps", "main\.mjs"\]$/m,
    );
    const ignore = readFileSync(join(dir, ".dockerignore"), "utf8");
    expect(ignore).toMatch(/^\*$/m);
    expect(ignore).toMatch(/^!scripts\/$/m);
  });

  it("writes the bundle script and pins the esbuild opgen is tested with", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const opgen = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.bundle).toBe("tsc -p tsconfig.json --noEmit && node scripts/bundle.mjs");
    expect(pkg.devDependencies.esbuild).toBe(opgen.devDependencies.esbuild);
    expect(pkg.dependencies.esbuild).toBeUndefined();
    expect(readFileSync(join(dir, "scripts/bundle.mjs"), "utf8")).toMatch(
      /^\/\*\nCopyright \d{4} /,
    );
  });

  it("writes the build-installer script and pins the yaml opgen uses", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const opgen = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    expect(pkg.scripts["build-installer"]).toBe(
      "opgen manifests && node scripts/build-installer.mjs",
    );
    expect(pkg.devDependencies.yaml).toBe(opgen.dependencies.yaml);
    expect(pkg.dependencies.yaml).toBeUndefined();
    const ignore = readFileSync(join(dir, ".gitignore"), "utf8");
    expect(ignore).toMatch(/^dist\/\*\n!dist\/install\.yaml$/m);
  });

  it("renders Kubebuilder's secure metrics: HTTPS on 8443, TokenReview/SubjectAccessReview RBAC", async () => {
    const { stdout } = await execa("kubectl", ["kustomize", join(dir, "config/default")]);
    const objects = parseAllDocuments(stdout).map((d) => d.toJS());
    const named = (kind: string, name: string) =>
      objects.find((o) => o.kind === kind && o.metadata.name === name);
    const deployment = named("Deployment", "appcluster-operator-controller-manager");
    const container = deployment.spec.template.spec.containers[0];
    // manager_metrics_patch.yaml puts the bind address first; probes stay on :8081.
    expect(container.args).toEqual([
      "--metrics-bind-address=:8443",
      "--leader-elect",
      "--health-probe-bind-address=:8081",
    ]);
    expect(container.ports).toEqual([{ containerPort: 8081, name: "probes", protocol: "TCP" }]);
    const service = named("Service", "appcluster-operator-controller-manager-metrics-service");
    expect(service.spec.ports).toEqual([
      { name: "https", port: 8443, protocol: "TCP", targetPort: 8443 },
    ]);
    expect(named("ClusterRole", "appcluster-operator-metrics-auth-role").rules).toEqual([
      { apiGroups: ["authentication.k8s.io"], resources: ["tokenreviews"], verbs: ["create"] },
      {
        apiGroups: ["authorization.k8s.io"],
        resources: ["subjectaccessreviews"],
        verbs: ["create"],
      },
    ]);
    const binding = named("ClusterRoleBinding", "appcluster-operator-metrics-auth-rolebinding");
    expect(binding.roleRef.name).toBe("appcluster-operator-metrics-auth-role");
    expect(binding.subjects).toEqual([
      {
        kind: "ServiceAccount",
        name: "appcluster-operator-controller-manager",
        namespace: "appcluster-operator-system",
      },
    ]);
    expect(named("ClusterRole", "appcluster-operator-metrics-reader").rules).toEqual([
      { nonResourceURLs: ["/metrics"], verbs: ["get"] },
    ]);
  });

  it("renders config/default with the optional prometheus, network-policy and certificate parts switched on", async () => {
    const other = join(tempDir(), "metrics-op");
    mkdirSync(other);
    expect((await runCli(["init", "--skip-install"], other)).exitCode).toBe(0);
    const file = join(other, "config/default/kustomization.yaml");
    const text = readFileSync(file, "utf8");
    expect(text).toContain("#- ../prometheus\n");
    expect(text).toContain("#- ../network-policy\n");
    expect(text).toContain(
      "#- path: cert_metrics_manager_patch.yaml\n#  target:\n#    kind: Deployment\n",
    );
    writeFileSync(
      file,
      text
        .replace("#- ../prometheus", "- ../prometheus")
        .replace("#- ../network-policy", "- ../network-policy")
        .replace(
          "#- path: cert_metrics_manager_patch.yaml\n#  target:\n#    kind: Deployment\n",
          "- path: cert_metrics_manager_patch.yaml\n  target:\n    kind: Deployment\n",
        ),
    );
    const prometheus = join(other, "config/prometheus/kustomization.yaml");
    writeFileSync(
      prometheus,
      readFileSync(prometheus, "utf8").replace(
        "#patches:\n#  - path: monitor_tls_patch.yaml\n#    target:\n#      kind: ServiceMonitor\n",
        "patches:\n  - path: monitor_tls_patch.yaml\n    target:\n      kind: ServiceMonitor\n",
      ),
    );
    const { stdout } = await execa("kubectl", ["kustomize", join(other, "config/default")]);
    const objects = parseAllDocuments(stdout).map((d) => d.toJS());
    const monitor = objects.find((o) => o.kind === "ServiceMonitor");
    expect(monitor.metadata).toMatchObject({
      name: "metrics-op-controller-manager-metrics-monitor",
      namespace: "metrics-op-system",
    });
    const secret = (key: string) => ({ secret: { name: "metrics-server-cert", key } });
    expect(monitor.spec.endpoints[0]).toEqual({
      path: "/metrics",
      port: "https",
      scheme: "https",
      bearerTokenFile: "/var/run/secrets/kubernetes.io/serviceaccount/token",
      tlsConfig: {
        serverName: "metrics-op-controller-manager-metrics-service.metrics-op-system.svc",
        insecureSkipVerify: false,
        ca: secret("ca.crt"),
        cert: secret("tls.crt"),
        keySecret: { name: "metrics-server-cert", key: "tls.key" },
      },
    });
    const service = objects.find((o) => o.kind === "Service");
    expect(monitor.spec.endpoints[0].tlsConfig.serverName).toBe(
      `${service.metadata.name}.${service.metadata.namespace}.svc`,
    );
    const policy = objects.find((o) => o.kind === "NetworkPolicy");
    expect(policy.metadata.namespace).toBe("metrics-op-system");
    expect(policy.spec.ingress[0].ports).toEqual([{ port: 8443, protocol: "TCP" }]);
    const pod = objects.find((o) => o.kind === "Deployment").spec.template.spec;
    expect(pod.containers[0].args).toContain(
      "--metrics-cert-path=/tmp/k8s-metrics-server/metrics-certs",
    );
    expect(pod.containers[0].volumeMounts).toEqual([
      { mountPath: "/tmp/k8s-metrics-server/metrics-certs", name: "metrics-certs", readOnly: true },
    ]);
    expect(pod.volumes[0]).toMatchObject({
      name: "metrics-certs",
      secret: { secretName: "metrics-server-cert" },
    });
  });

  it("hardens the manager Deployment", () => {
    const docs = readFileSync(join(dir, "config/manager/manager.yaml"), "utf8")
      .split(/^---$/m)
      .map((d) => parse(d));
    const deployment = docs.find((d) => d.kind === "Deployment");
    const pod = deployment.spec.template.spec;
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      seccompProfile: { type: "RuntimeDefault" },
    });
    const container = pod.containers[0];
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    expect(container.args).toContain("--leader-elect");
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.resources.limits).toBeDefined();
  });

  it("reports a failing npm install with npm's own words and a non-zero exit", async () => {
    const dir = tempDir();
    const result = await runCli(
      ["init", "--runtime-spec", "file:/nonexistent/opgen-runtime.tgz"],
      dir,
    );
    expect(result.exitCode).toBe(1);
    const last = result.stderr.trim().split("\n").at(-1)!;
    expect(last).toMatch(
      /^opgen: npm install failed in .* \(exit \d+\): .+; the project was written, fix the problem and run `npm install` there$/,
    );
    expect(last).toMatch(/ENOENT.*nonexistent\/opgen-runtime.tgz/);
    expect(existsSync(join(dir, "package.json"))).toBe(true);
  });

  it("refuses a directory holding other files, naming them all, writing nothing", async () => {
    const busy = tempDir();
    writeFileSync(join(busy, "notes.txt"), "mine");
    writeFileSync(join(busy, "README.md"), "# mine\n");
    const before = snapshot(busy);
    expectOneLineFailure(
      await runCli(["init", "--skip-install"], busy),
      /already holds notes\.txt: opgen init scaffolds only next to \.git, dotfiles, \*\.md and LICENSE-like files; move it away and run again$/,
    );
    expect(snapshot(busy)).toEqual(before);
  });

  it("scaffolds next to .git, .gitignore, README.md and LICENSE, keeping the user's files", async () => {
    const repo = join(tempDir(), "started-operator");
    mkdirSync(join(repo, ".git"), { recursive: true });
    writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(repo, ".gitignore"), "# mine\n.env\ndist/\n");
    writeFileSync(join(repo, "README.md"), "# My operator\n");
    writeFileSync(join(repo, "LICENSE"), "MIT License\n");
    const before = snapshot(repo);
    const result = await runCli(["init", "--domain", "example.com", "--skip-install"], repo);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /^Scaffolded started-operator \(\d+ files\) in .*; kept your README\.md, added opgen's entries to your \.gitignore$/m,
    );
    const after = snapshot(repo);
    for (const kept of [".git/HEAD", "README.md", "LICENSE"]) {
      expect(after[kept], kept).toBe(before[kept]);
    }
    expect(readFileSync(join(repo, ".gitignore"), "utf8")).toBe(
      "# mine\n.env\ndist/\n\n# Added by opgen init\nnode_modules/\ndist/*\n!dist/install.yaml\ncoverage/\n*.kubeconfig\n.opgen-tmp-*\n",
    );
    for (const file of ["PROJECT", "package.json", "src/main.ts", ".dockerignore"]) {
      expect(existsSync(join(repo, file)), file).toBe(true);
    }
  });

  it("refuses a folder with main.ts, naming it and changing nothing", async () => {
    const repo = tempDir();
    mkdirSync(join(repo, ".git"));
    writeFileSync(join(repo, ".gitignore"), "node_modules/\n");
    writeFileSync(join(repo, "README.md"), "# mine\n");
    writeFileSync(join(repo, "LICENSE"), "MIT\n");
    writeFileSync(join(repo, "main.ts"), "console.log(1);\n");
    const before = snapshot(repo);
    expectOneLineFailure(
      await runCli(["init", "--skip-install"], repo),
      /already holds main\.ts: .*; move it away and run again$/,
    );
    expect(snapshot(repo)).toEqual(before);
  });

  it("lists every conflict, sorted, including a scaffold file inside a dot-folder and package.json", async () => {
    const repo = tempDir();
    mkdirSync(join(repo, ".github", "workflows"), { recursive: true });
    writeFileSync(join(repo, ".github", "workflows", "ci.yml"), "name: mine\n");
    writeFileSync(join(repo, "package.json"), "{}\n");
    mkdirSync(join(repo, "src"));
    writeFileSync(join(repo, "src", "index.ts"), "");
    writeFileSync(join(repo, "PROJECT"), "domain: x\n");
    const before = snapshot(repo);
    expectOneLineFailure(
      await runCli(["init", "--skip-install"], repo),
      /already holds \.github\/workflows\/ci\.yml, PROJECT, package\.json, src\/index\.ts: .*move them away and run again; opgen init writes its own package\.json/,
    );
    expect(snapshot(repo)).toEqual(before);
  });

  it("names at most ten conflicting paths and counts the rest, never the files of node_modules/ or dist/", async () => {
    const busy = tempDir();
    for (const folder of ["src", "dist/api", "node_modules/x"])
      mkdirSync(join(busy, folder), { recursive: true });
    for (let i = 0; i < 200; i++) {
      writeFileSync(join(busy, `src/file${String(i).padStart(3, "0")}.ts`), "");
      writeFileSync(join(busy, `dist/api/file${i}.js`), "");
      writeFileSync(join(busy, `node_modules/x/file${i}.js`), "");
    }
    const before = snapshot(busy);
    const result = await runCli(["init", "--skip-install"], busy);
    expectOneLineFailure(
      result,
      /already holds dist\/, node_modules\/, src\/file000\.ts, src\/file001\.ts, src\/file002\.ts, src\/file003\.ts, src\/file004\.ts, src\/file005\.ts, src\/file006\.ts, src\/file007\.ts and 192 more: opgen init scaffolds only next to/,
    );
    expect(result.stderr.length).toBeLessThan(400);
    expect(snapshot(busy)).toEqual(before);
  });

  it("rejects a bad domain and an unknown flag, writing nothing", async () => {
    const empty = tempDir();
    expectOneLineFailure(
      await runCli(["init", "--domain", "Bad_Domain", "--skip-install"], empty),
      /invalid --domain/,
    );
    expectOneLineFailure(
      await runCli(["init", "--frobnicate"], empty),
      /unknown option '--frobnicate'/,
    );
    expect(snapshot(empty)).toEqual({});
  });
});

describe("opgen create api", () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir();
    expect(
      (
        await runCli(
          ["init", "--domain", "my.domain", "--project-name", "demo", "--skip-install"],
          dir,
        )
      ).exitCode,
    ).toBe(0);
    const result = await runCli(
      ["create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"],
      dir,
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  });

  it("adds the API, controller, test, sample and roles", () => {
    for (const file of [
      "src/api/v1/groupversion.ts",
      "src/api/v1/appcluster.types.ts",
      "src/controllers/appcluster.controller.ts",
      "test/appcluster.controller.test.ts",
      "config/samples/demo_v1_appcluster.yaml",
      "config/rbac/appcluster_admin_role.yaml",
      "config/rbac/appcluster_editor_role.yaml",
      "config/rbac/appcluster_viewer_role.yaml",
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const types = readFileSync(join(dir, "src/api/v1/appcluster.types.ts"), "utf8");
    expect(types).toContain("@resource scope=Namespaced\n");
    expect(types).toContain("@subresource status");
    expect(types).toContain('plural: "appclusters"');
    expect(readFileSync(join(dir, "src/api/v1/groupversion.ts"), "utf8")).toContain(
      "@groupName demo.my.domain",
    );
    const controller = readFileSync(join(dir, "src/controllers/appcluster.controller.ts"), "utf8");
    expect(controller).toContain(
      "@rbac groups=demo.my.domain,resources=appclusters,verbs=get;list;watch;create;update;patch;delete",
    );
    expect(controller).toContain(
      "@rbac groups=demo.my.domain,resources=appclusters/status,verbs=get;update;patch",
    );
    expect(controller).toContain(
      "@rbac groups=demo.my.domain,resources=appclusters/finalizers,verbs=update",
    );
  });

  it("wires the controller into main.ts and the kustomizations", () => {
    const main = readFileSync(join(dir, "src/main.ts"), "utf8");
    expect(main).toContain(
      'import { setupAppClusterController } from "./controllers/appcluster.controller.js";\n// +opgen:scaffold:imports',
    );
    expect(main).toContain("setupAppClusterController(mgr);\n// +opgen:scaffold:controllers");
    expect(
      parse(readFileSync(join(dir, "config/crd/kustomization.yaml"), "utf8")).resources,
    ).toEqual(["bases/demo.my.domain_appclusters.yaml"]);
    expect(
      parse(readFileSync(join(dir, "config/samples/kustomization.yaml"), "utf8")).resources,
    ).toEqual(["demo_v1_appcluster.yaml"]);
    expect(
      parse(readFileSync(join(dir, "config/rbac/kustomization.yaml"), "utf8")).resources,
    ).toEqual(
      expect.arrayContaining([
        "appcluster_admin_role.yaml",
        "appcluster_editor_role.yaml",
        "appcluster_viewer_role.yaml",
      ]),
    );
    const sample = parse(readFileSync(join(dir, "config/samples/demo_v1_appcluster.yaml"), "utf8"));
    expect(sample).toMatchObject({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name: "appcluster-sample" },
    });
  });

  it("records the resource in PROJECT", () => {
    expect(parse(readFileSync(join(dir, "PROJECT"), "utf8")).resources).toEqual([
      {
        api: { crdVersion: "v1", namespaced: true },
        controller: true,
        domain: "my.domain",
        group: "demo",
        kind: "AppCluster",
        path: "src/api/v1",
        plural: "appclusters",
        version: "v1",
      },
    ]);
  });

  it("adds a second cluster-scoped kind with an irregular plural next to the first", async () => {
    const result = await runCli(
      [
        "create",
        "api",
        "--group",
        "demo",
        "--version",
        "v1",
        "--kind",
        "Fish",
        "--plural",
        "fishes",
        "--namespaced=false",
      ],
      dir,
    );
    expect(result.exitCode).toBe(0);
    const types = readFileSync(join(dir, "src/api/v1/fish.types.ts"), "utf8");
    expect(types).toContain("@resource scope=Cluster path=fishes");
    expect((await runCli(["manifests"], dir)).exitCode).toBe(0);
    const crd = parse(
      readFileSync(join(dir, "config/crd/bases/demo.my.domain_fishes.yaml"), "utf8"),
    );
    expect(crd.spec.names).toMatchObject({ kind: "Fish", plural: "fishes", singular: "fish" });
    expect(crd.spec.scope).toBe("Cluster");
    expect(types).toContain('plural: "fishes"');
    const main = readFileSync(join(dir, "src/main.ts"), "utf8");
    expect(main.indexOf("setupAppClusterController(mgr)")).toBeLessThan(
      main.indexOf("setupFishController(mgr)"),
    );
    expect(
      parse(readFileSync(join(dir, "config/crd/kustomization.yaml"), "utf8")).resources,
    ).toEqual(["bases/demo.my.domain_appclusters.yaml", "bases/demo.my.domain_fishes.yaml"]);
  });

  it("adds a second version of a kind without a second controller or second roles", async () => {
    const before = snapshot(dir);
    expectOneLineFailure(
      await runCli(
        ["create", "api", "--group", "demo", "--version", "v2", "--kind", "AppCluster"],
        dir,
      ),
      /AppCluster already has a controller \(demo\/v1\); pass --controller=false to add only the v2 API/,
    );
    expect(snapshot(dir)).toEqual(before);
    const result = await runCli(
      [
        "create",
        "api",
        "--group",
        "demo",
        "--version",
        "v2",
        "--kind",
        "AppCluster",
        "--controller=false",
      ],
      dir,
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(join(dir, "src/api/v2/appcluster.types.ts"))).toBe(true);
    expect(existsSync(join(dir, "config/samples/demo_v2_appcluster.yaml"))).toBe(true);
    expect(result.stdout).not.toContain("role.yaml");
    // Two versions and no storage version: manifests says what to do.
    const manifests = await runCli(["manifests"], dir);
    expect(manifests.exitCode).toBe(1);
    expect(manifests.stderr).toMatch(
      /none is marked @storageversion; add it to the JSDoc of the version the API server should store/,
    );
  });

  it.each([
    [
      "a duplicate kind",
      ["--group", "demo", "--version", "v1", "--kind", "AppCluster"],
      /already exists in PROJECT; nothing was changed/,
    ],
    [
      "a path in the kind",
      ["--group", "demo", "--version", "v1", "--kind", "../../x"],
      /invalid --kind "..\/..\/x"/,
    ],
    [
      "a bad group",
      ["--group", "Demo", "--version", "v1", "--kind", "Thing"],
      /invalid --group "Demo"/,
    ],
    [
      "a path in the group",
      ["--group", "../etc", "--version", "v1", "--kind", "Thing"],
      /invalid --group/,
    ],
    [
      "a bad version",
      ["--group", "demo", "--version", "1.0", "--kind", "Thing"],
      /invalid --version "1.0"/,
    ],
    [
      "a bad kind",
      ["--group", "demo", "--version", "v1", "--kind", "thing"],
      /invalid --kind "thing"/,
    ],
    [
      "a bad plural",
      ["--group", "demo", "--version", "v1", "--kind", "Thing", "--plural", "../things"],
      /invalid --plural/,
    ],
    [
      "a bad boolean",
      ["--group", "demo", "--version", "v1", "--kind", "Thing", "--namespaced=maybe"],
      /expected true or false/,
    ],
    [
      "an unknown flag",
      ["--group", "demo", "--version", "v1", "--kind", "Thing", "--webhook"],
      /unknown option '--webhook'/,
    ],
    [
      "a second group in a single-group project",
      ["--group", "batch", "--version", "v1", "--kind", "Thing"],
      /single-group project/,
    ],
    [
      "a missing flag",
      ["--group", "demo", "--kind", "Thing"],
      /required option '--version <version>' not specified/,
    ],
  ])("rejects %s with one line, changing nothing", async (_what, args, message) => {
    const before = snapshot(dir);
    expectOneLineFailure(await runCli(["create", "api", ...args], dir), message);
    expect(snapshot(dir)).toEqual(before);
  });

  it("refuses to overwrite a file that exists, changing nothing", async () => {
    mkdirSync(join(dir, "src/controllers"), { recursive: true });
    writeFileSync(join(dir, "src/controllers/widget.controller.ts"), "// mine\n");
    const before = snapshot(dir);
    expectOneLineFailure(
      await runCli(
        ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Widget"],
        dir,
      ),
      /refusing to overwrite existing file: src\/controllers\/widget.controller.ts/,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  // Each of these runs the CLI five to nine times: the timeouts bound that work on a busy machine.
  it("takes boolean flags bare and with '=', as Kubebuilder's pflag does", async () => {
    const project = tempDir();
    const init = await runCli(["init", "--skip-install=true", "--multigroup=false"], project);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(existsSync(join(project, "node_modules"))).toBe(false);
    const gvk = (kind: string) => [
      "create",
      "api",
      "--group",
      "demo",
      "--version",
      "v1",
      "--kind",
      kind,
    ];
    const bare = await runCli(
      [...gvk("Bare"), "--resource", "--controller", "--namespaced"],
      project,
    );
    expect(bare.exitCode, bare.stderr).toBe(0);
    const valued = await runCli(
      [...gvk("Valued"), "--resource=true", "--controller=false", "--namespaced=false"],
      project,
    );
    expect(valued.exitCode, valued.stderr).toBe(0);
    const resources = parse(readFileSync(join(project, "PROJECT"), "utf8")).resources;
    expect(resources).toMatchObject([
      { kind: "Bare", api: { namespaced: true }, controller: true },
      { kind: "Valued", api: { namespaced: false } },
    ]);
    expect(resources[1].controller).toBeUndefined();
    expect(existsSync(join(project, "src/controllers/valued.controller.ts"))).toBe(false);
    const before = snapshot(project);
    expectOneLineFailure(
      await runCli([...gvk("Detached"), "--resource", "false"], project),
      /^opgen: unexpected argument 'false' after --resource: a boolean flag takes its value after '=' \(--resource=false\), as in Kubebuilder \(see opgen --help\)$/,
    );
    expectOneLineFailure(
      await runCli([...gvk("Detached"), "--controller=nope"], project),
      /^opgen: option '--controller' argument 'nope' is invalid: expected true or false/,
    );
    expect(snapshot(project)).toEqual(before);
    const check = await runCli(["manifests", "--strict=false"], project);
    expect(check.exitCode, check.stderr).toBe(0);
    expect((await runCli(["manifests", "--check=true"], project)).exitCode).toBe(0);
  }, 120_000);

  it("--force scaffolds the kind's files again, as Kubebuilder's does, and leaves the rest", async () => {
    const project = tempDir();
    expect((await runCli(["init", "--skip-install"], project)).exitCode).toBe(0);
    const args = ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Widget"];
    expect((await runCli(args, project)).exitCode).toBe(0);
    const scaffolded = snapshot(project);
    // Overwritten with --force: what Kubebuilder's templates mark OverwriteFile.
    const overwritten = [
      "src/api/v1/widget.types.ts",
      "src/controllers/widget.controller.ts",
      "test/widget.controller.test.ts",
      "config/samples/demo_v1_widget.yaml",
      "config/rbac/widget_editor_role.yaml",
    ];
    // Kept: the group's file, and the files create api only adds entries to.
    const kept = ["src/api/v1/groupversion.ts", "src/main.ts", "config/crd/kustomization.yaml"];
    for (const file of [...overwritten, ...kept]) {
      const mine = file.endsWith(".ts") ? "// mine\n" : "# mine\n";
      writeFileSync(join(project, file), `${readFileSync(join(project, file), "utf8")}${mine}`);
    }
    const edited = snapshot(project);
    expectOneLineFailure(
      await runCli(args, project),
      /already exists in PROJECT; nothing was changed \(pass --force to scaffold its files again\)$/,
    );
    expect(snapshot(project)).toEqual(edited);
    const forced = await runCli([...args, "--force"], project);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(
      forced.stdout
        .split("\n")
        .filter((l) => l.startsWith("updated "))
        .sort(),
    ).toEqual(overwritten.map((f) => `updated ${f}`).sort());
    const after = snapshot(project);
    for (const file of overwritten) expect(after[file], file).toBe(scaffolded[file]);
    for (const file of kept) expect(after[file], file).toBe(edited[file]);
    expect(after.PROJECT).toBe(scaffolded.PROJECT);
    // Nothing left to overwrite: a second --force changes nothing.
    const again = await runCli([...args, "--force"], project);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).not.toMatch(/^(created|updated) /m);
    expect(snapshot(project)).toEqual(after);
  }, 120_000);

  it("--force overwrites a file of a new kind that is in the way", async () => {
    const project = tempDir();
    expect((await runCli(["init", "--skip-install"], project)).exitCode).toBe(0);
    mkdirSync(join(project, "src/controllers"), { recursive: true });
    writeFileSync(join(project, "src/controllers/gadget.controller.ts"), "// mine\n");
    const args = ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Gadget"];
    const forced = await runCli([...args, "--force"], project);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^updated src\/controllers\/gadget\.controller\.ts$/m);
    expect(readFileSync(join(project, "src/controllers/gadget.controller.ts"), "utf8")).toContain(
      "setupGadgetController",
    );
  }, 60_000);

  it("fails outside a project", async () => {
    const empty = tempDir();
    expectOneLineFailure(
      await runCli(
        ["create", "api", "--group", "demo", "--version", "v1", "--kind", "Thing"],
        empty,
      ),
      /no PROJECT file in .*: run this command in a project created by `opgen init`/,
    );
    expectOneLineFailure(
      await runCli(["manifests"], empty),
      /nothing to generate in .*: no PROJECT file/,
    );
    expect(snapshot(empty)).toEqual({});
  });
});
