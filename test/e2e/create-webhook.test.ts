/**
 * `opgen create webhook` through the built CLI, on a project named and shaped like Kubebuilder's
 * testdata/project-v4 (Captain, FirstMate v1/v2, Sailor, Admiral) so its config/ files can be
 * compared with Kubebuilder's byte for byte; the rendered config/default; --force idempotence;
 * refusals that leave the tree byte-identical; a project scaffolded before webhooks existed; and
 * a generated project whose own webhook test runs against envtest.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { CLI, runCli, snapshot, tempDir } from "../helpers/cli.js";
import { WEBHOOK_FIXTURES } from "../helpers/fixtures.js";

const KB = join(WEBHOOK_FIXTURES, "kubebuilder");
const fixture = (path: string) => readFileSync(join(KB, path), "utf8");

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

async function ok(args: string[], cwd: string) {
  const result = await runCli(args, cwd);
  expect(result.stderr, args.join(" ")).toBe("");
  expect(result.exitCode, args.join(" ")).toBe(0);
  return result;
}

const webhook = (kind: string, version: string, ...flags: string[]) => [
  "create",
  "webhook",
  "--group",
  "crew",
  "--version",
  version,
  "--kind",
  kind,
  ...flags,
];

const api = (kind: string, version: string, ...flags: string[]) => [
  "create",
  "api",
  "--group",
  "crew",
  "--version",
  version,
  "--kind",
  kind,
  ...flags,
];

describe("opgen create webhook on Kubebuilder's project-v4", () => {
  let dir: string;
  const read = (path: string) => readFileSync(join(dir, path), "utf8");

  beforeAll(async () => {
    dir = join(tempDir(), "project-v4");
    mkdirSync(dir);
    await ok(["init", "--domain", "testproject.org", "--license", "none", "--skip-install"], dir);
    await ok(api("Captain", "v1"), dir);
    await ok(api("FirstMate", "v1"), dir);
    await ok(api("FirstMate", "v2", "--controller=false"), dir);
    await ok(api("Sailor", "v1"), dir);
    await ok(api("Admiral", "v1", "--plural", "admirales", "--namespaced=false"), dir);
    await ok(webhook("Captain", "v1", "--defaulting", "--programmatic-validation"), dir);
    await ok(webhook("FirstMate", "v1", "--conversion", "--spoke", "v2"), dir);
    await ok(
      webhook(
        "Sailor",
        "v1",
        "--defaulting",
        "--programmatic-validation",
        "--defaulting-path",
        "/custom-mutate-sailor",
        "--validation-path=/custom-validate-sailor",
      ),
      dir,
    );
    // One type at a time: the second run updates the webhook file.
    await ok(webhook("Admiral", "v1", "--defaulting"), dir);
    await ok(
      webhook(
        "Admiral",
        "v1",
        "--programmatic-validation",
        "--validation-path",
        "/custom-validate-admiral",
      ),
      dir,
    );
  }, 120_000);

  it("writes Kubebuilder's config/ files", () => {
    for (const file of [
      "config/webhook/kustomization.yaml",
      "config/webhook/service.yaml",
      "config/certmanager/issuer.yaml",
      "config/certmanager/certificate-webhook.yaml",
      "config/certmanager/certificate-metrics.yaml",
      "config/certmanager/kustomization.yaml",
      "config/certmanager/kustomizeconfig.yaml",
      "config/network-policy/allow-webhook-traffic.yaml",
      "config/network-policy/kustomization.yaml",
      "config/crd/kustomizeconfig.yaml",
      "config/crd/patches/webhook_in_firstmates.yaml",
      "config/default/manager_webhook_patch.yaml",
    ]) {
      expect(read(file), file).toBe(fixture(`project-v4/${file}`));
    }
  });

  it("switches on the webhook parts of config/default as Kubebuilder does", () => {
    const text = read("config/default/kustomization.yaml");
    const from = (t: string) =>
      t.slice(t.indexOf(" - source: # Uncomment the following block if you have any webhook"));
    expect(from(text)).toBe(
      from(fixture("project-v4/config/default/kustomization.yaml")).replaceAll(
        "+kubebuilder:scaffold:",
        "+opgen:scaffold:",
      ),
    );
    const k = parse(text);
    expect(k.resources).toEqual(
      expect.arrayContaining(["../webhook", "../certmanager", "metrics_service.yaml"]),
    );
    expect(k.patches.map((p: { path: string }) => p.path)).toEqual([
      "manager_metrics_patch.yaml",
      "manager_webhook_patch.yaml",
    ]);
    const crd = parse(read("config/crd/kustomization.yaml"));
    expect(crd.patches).toEqual([{ path: "patches/webhook_in_firstmates.yaml" }]);
    expect(crd.configurations).toEqual(["kustomizeconfig.yaml"]);
  });

  it("records webhooks: in PROJECT as Kubebuilder's PROJECT does", () => {
    const mine = parse(read("PROJECT")).resources;
    const theirs = parse(fixture("project-v4/PROJECT")).resources;
    for (const [kind, version] of [
      ["Captain", "v1"],
      ["FirstMate", "v1"],
      ["FirstMate", "v2"],
      ["Sailor", "v1"],
      ["Admiral", "v1"],
    ]) {
      const find = (list: { kind: string; version: string }[]) =>
        list.find((r) => r.kind === kind && r.version === version) as { webhooks?: object };
      expect(find(mine).webhooks, `${kind} ${version}`).toEqual(find(theirs).webhooks);
    }
  });

  it("writes the TypeScript webhooks, conversions and the hub's @storageversion", () => {
    const captain = read("src/webhooks/v1/captain.webhook.ts");
    expect(captain).toContain(
      "@webhook path=/mutate-crew-testproject-org-v1-captain mutating=true failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=captains verbs=create;update versions=v1 name=mcaptain-v1.kb.io admissionReviewVersions=v1\n",
    );
    expect(captain).toContain(
      "@webhook path=/validate-crew-testproject-org-v1-captain mutating=false failurePolicy=fail sideEffects=None groups=crew.testproject.org resources=captains verbs=create;update versions=v1 name=vcaptain-v1.kb.io admissionReviewVersions=v1\n",
    );
    expect(captain).toContain(
      "export class CaptainCustomDefaulter implements CustomDefaulter<Captain> {",
    );
    expect(captain).toContain(
      "export class CaptainCustomValidator implements CustomValidator<Captain> {",
    );
    expect(captain).toContain(
      "  webhookFor(mgr, CaptainKind)\n    .withDefaulter(new CaptainCustomDefaulter())\n    .withValidator(new CaptainCustomValidator())\n    .complete();\n",
    );
    const sailor = read("src/webhooks/v1/sailor.webhook.ts");
    expect(sailor).toContain(
      '.withDefaulter(new SailorCustomDefaulter(), { path: "/custom-mutate-sailor" })',
    );
    expect(sailor).toContain("@webhook path=/custom-validate-sailor mutating=false");
    // Added in a second run, like Kubebuilder's updater: the class and its registration.
    const admiral = read("src/webhooks/v1/admiral.webhook.ts");
    expect(admiral).toContain(
      '    .withDefaulter(new AdmiralCustomDefaulter())\n    .withValidator(new AdmiralCustomValidator(), { path: "/custom-validate-admiral" })\n    .complete();',
    );
    expect(admiral).toContain("resources=admirales");
    // Its test, still as scaffolded by the first run, covers both types now.
    const admiralTest = read("test/webhooks/v1/admiral.webhook.test.ts");
    expect(admiralTest).toContain('describe("Admiral defaulting webhook"');
    expect(admiralTest).toContain('describe("Admiral validating webhook"');
    expect(admiralTest).toContain("const key = (name: string) => ({ name });");
    const firstmate = read("src/webhooks/v1/firstmate.webhook.ts");
    expect(firstmate).toContain(
      '  conversionFor(mgr, FirstMateHub)\n    .spoke("v2", FirstMateV2Conversion)\n    .complete();\n',
    );
    expect(firstmate).not.toContain("webhookFor");
    expect(read("src/api/v1/firstmate.conversion.ts")).toContain("export const FirstMateHub = {");
    expect(read("src/api/v2/firstmate.conversion.ts")).toContain(
      "export const FirstMateV2Conversion: SpokeConversion<FirstMate, FirstMateV1> = {",
    );
    expect(read("src/api/v1/firstmate.types.ts")).toMatch(
      / \* @storageversion\n \*\/\nexport interface FirstMate \{/,
    );
    expect(read("src/api/v2/firstmate.types.ts")).not.toContain("@storageversion");
    expect(read("test/webhooks/v1/captain.webhook.test.ts")).toContain(
      'webhooks: { paths: ["config/webhook"] }',
    );
  });

  it("registers each webhook in main.ts behind ENABLE_WEBHOOKS", () => {
    const main = read("src/main.ts");
    for (const kind of ["Captain", "FirstMate", "Sailor", "Admiral"]) {
      expect(main).toContain(
        `import { setup${kind}WebhookWithManager } from "./webhooks/v1/${kind.toLowerCase()}.webhook.js";\n`,
      );
      expect(main).toContain(
        `if (process.env.ENABLE_WEBHOOKS !== "false") {\n  setup${kind}WebhookWithManager(mgr);\n}\n`,
      );
    }
    expect(main.indexOf("setupAdmiralWebhookWithManager(mgr)")).toBeLessThan(
      main.indexOf("// +opgen:scaffold:webhooks"),
    );
    expect(main.indexOf("setupCaptainController(mgr)")).toBeLessThan(
      main.indexOf("setupCaptainWebhookWithManager(mgr)"),
    );
  });

  it("renders config/default with kubectl kustomize: webhooks, Service, Certificate, Issuer, CA injection, conversion", async () => {
    expect((await runCli(["manifests"], dir)).exitCode).toBe(0);
    const { stdout } = await execa("kubectl", ["kustomize", join(dir, "config/default")]);
    const objects = parseAllDocuments(stdout).map((d) => d.toJS());
    const find = (kind: string, name: string) =>
      objects.find((o) => o.kind === kind && o.metadata.name === name);
    const inject = "project-v4-system/project-v4-serving-cert";
    const mutating = find(
      "MutatingWebhookConfiguration",
      "project-v4-mutating-webhook-configuration",
    );
    const validating = find(
      "ValidatingWebhookConfiguration",
      "project-v4-validating-webhook-configuration",
    );
    for (const config of [mutating, validating]) {
      expect(config.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(inject);
      for (const w of config.webhooks) {
        expect(w.clientConfig.service).toMatchObject({
          name: "project-v4-webhook-service",
          namespace: "project-v4-system",
        });
      }
    }
    expect(
      mutating.webhooks
        .map((w: { clientConfig: { service: { path: string } } }) => w.clientConfig.service.path)
        .sort(),
    ).toEqual([
      "/custom-mutate-sailor",
      "/mutate-crew-testproject-org-v1-admiral",
      "/mutate-crew-testproject-org-v1-captain",
    ]);
    const service = find("Service", "project-v4-webhook-service");
    expect(service.spec.ports).toEqual([{ port: 443, protocol: "TCP", targetPort: 9443 }]);
    const certificate = find("Certificate", "project-v4-serving-cert");
    expect(certificate.spec.dnsNames).toEqual([
      "project-v4-webhook-service.project-v4-system.svc",
      "project-v4-webhook-service.project-v4-system.svc.cluster.local",
    ]);
    expect(certificate.spec.issuerRef).toEqual({
      kind: "Issuer",
      name: "project-v4-selfsigned-issuer",
    });
    expect(find("Issuer", "project-v4-selfsigned-issuer").spec).toEqual({ selfSigned: {} });
    const crd = find("CustomResourceDefinition", "firstmates.crew.testproject.org");
    expect(crd.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(inject);
    expect(crd.spec.conversion).toEqual({
      strategy: "Webhook",
      webhook: {
        clientConfig: {
          service: {
            name: "project-v4-webhook-service",
            namespace: "project-v4-system",
            path: "/convert",
          },
        },
        conversionReviewVersions: ["v1"],
      },
    });
    expect(
      find("CustomResourceDefinition", "captains.crew.testproject.org").spec.conversion,
    ).toBeUndefined();
    const pod = find("Deployment", "project-v4-controller-manager").spec.template.spec;
    expect(pod.containers[0].args).toEqual(
      expect.arrayContaining([
        "--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs",
        "--webhook-port=9443",
      ]),
    );
    expect(pod.containers[0].ports).toContainEqual({
      containerPort: 9443,
      name: "webhook-server",
      protocol: "TCP",
    });
    expect(pod.containers[0].volumeMounts).toContainEqual({
      mountPath: "/tmp/k8s-webhook-server/serving-certs",
      name: "webhook-certs",
      readOnly: true,
    });
    expect(pod.volumes).toContainEqual({
      name: "webhook-certs",
      secret: { secretName: "webhook-server-cert" },
    });
  });

  it("gives the same tree with --force, every time", async () => {
    const before = snapshot(dir);
    await ok(webhook("Captain", "v1", "--defaulting", "--programmatic-validation", "--force"), dir);
    const once = snapshot(dir);
    expect(once).toEqual(before);
    await ok(webhook("FirstMate", "v1", "--conversion", "--spoke", "v2", "--force"), dir);
    await ok(webhook("FirstMate", "v1", "--conversion", "--spoke", "v2", "--force"), dir);
    expect(snapshot(dir)).toEqual(before);
  });

  it.each([
    [
      "no webhook type",
      [],
      /requires at least one of --defaulting, --programmatic-validation and --conversion$/,
    ],
    [
      "an unknown kind",
      ["--defaulting", "--kind", "Pilot"],
      /no API found for crew\/v1, Kind Pilot: run `opgen create api --group crew --version v1 --kind Pilot` first$/,
    ],
    [
      "an existing type",
      ["--programmatic-validation"],
      /validation webhook already exists for crew\/v1, Kind Captain; pass --force/,
    ],
    [
      "--defaulting-path alone",
      ["--programmatic-validation", "--defaulting-path", "/x"],
      /^opgen: --defaulting-path can only be used with --defaulting$/,
    ],
    [
      "--validation-path alone",
      ["--defaulting", "--validation-path", "/x"],
      /^opgen: --validation-path can only be used with --programmatic-validation$/,
    ],
    [
      "a path the API server refuses",
      ["--defaulting", "--defaulting-path", "/Custom_Path", "--force"],
      /invalid --defaulting-path "\/Custom_Path": segments must be lower-case letters, digits and "-"/,
    ],
    [
      "a path served for another kind",
      ["--defaulting", "--force", "--defaulting-path", "/custom-mutate-sailor"],
      /path \/custom-mutate-sailor is already served for crew\/v1, Kind Sailor; choose another with --defaulting-path$/,
    ],
    [
      "a spoke that does not exist",
      ["--conversion", "--spoke", "v3"],
      /invalid spoke version "v3": Captain has no API in crew\/v3; run `opgen create api --group crew --version v3 --kind Captain --controller=false` first$/,
    ],
    [
      "--spoke without --conversion",
      ["--defaulting", "--force", "--spoke", "v2"],
      /--spoke can only be used with --conversion$/,
    ],
    [
      "conversion without spokes",
      ["--conversion"],
      /--conversion needs the versions to convert to and from the hub v1: add --spoke/,
    ],
  ])("refuses %s with one line and changes nothing", async (_name, flags, message) => {
    const before = snapshot(dir);
    const kind = flags.includes("--kind") ? [] : ["--kind", "Captain"];
    const args = ["create", "webhook", "--group", "crew", "--version", "v1", ...kind, ...flags];
    expectOneLineFailure(await runCli(args, dir), message);
    expect(snapshot(dir)).toEqual(before);
  });

  it("refuses an existing conversion and a spoke equal to the hub, changing nothing", async () => {
    const before = snapshot(dir);
    expectOneLineFailure(
      await runCli(webhook("FirstMate", "v1", "--conversion", "--spoke", "v2"), dir),
      /conversion webhook already exists for crew\/v1, Kind FirstMate; pass --force/,
    );
    expectOneLineFailure(
      await runCli(webhook("FirstMate", "v1", "--conversion", "--spoke", "v1"), dir),
      /invalid spoke version "v1": it is the hub/,
    );
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("opgen create api after opgen create webhook", () => {
  it("keeps the kind's webhooks: when a controller is added to it, and an edited test", async () => {
    const dir = join(tempDir(), "later-op");
    mkdirSync(dir);
    await ok(["init", "--domain", "example.com", "--license", "none", "--skip-install"], dir);
    await ok(api("Navigator", "v1", "--controller=false"), dir);
    await ok(webhook("Navigator", "v1", "--defaulting"), dir);
    await ok(api("Navigator", "v1", "--resource=false"), dir);
    // A webhook test the user has edited is kept when another type is added.
    const testFile = join(dir, "test/webhooks/v1/navigator.webhook.test.ts");
    writeFileSync(testFile, `${readFileSync(testFile, "utf8")}// mine\n`);
    const edited = readFileSync(testFile, "utf8");
    const added = await ok(webhook("Navigator", "v1", "--programmatic-validation"), dir);
    expect(added.stdout).toContain(
      "kept test/webhooks/v1/navigator.webhook.test.ts (pass --force to scaffold it again)\n",
    );
    expect(readFileSync(testFile, "utf8")).toBe(edited);
    const navigator = parse(readFileSync(join(dir, "PROJECT"), "utf8")).resources[0];
    expect(navigator.controller).toBe(true);
    expect(navigator.webhooks).toEqual({
      defaulting: true,
      validation: true,
      webhookVersion: "v1",
    });

    // The hub must be the stored version: another version marked @storageversion is refused.
    await ok(api("Navigator", "v2", "--controller=false"), dir);
    const v2Types = join(dir, "src/api/v2/navigator.types.ts");
    writeFileSync(
      v2Types,
      readFileSync(v2Types, "utf8").replace(
        " * @subresource status\n",
        " * @subresource status\n * @storageversion\n",
      ),
    );
    const before = snapshot(dir);
    expectOneLineFailure(
      await runCli(webhook("Navigator", "v1", "--conversion", "--spoke", "v2"), dir),
      /src\/api\/v2\/navigator.types.ts marks v2 @storageversion, but the conversion hub v1 must be the stored version: remove that marker, or make v2 the hub \(--version v2\)$/,
    );
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);
});

describe("opgen create webhook on a project scaffolded before webhooks", () => {
  it("adds the main.ts insertion point and the config/default entries itself", async () => {
    const dir = join(tempDir(), "old-op");
    mkdirSync(dir);
    await ok(["init", "--domain", "example.com", "--license", "none", "--skip-install"], dir);
    await ok(["create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"], dir);
    // What `opgen init` wrote before: no webhooks insertion point, no [WEBHOOK] sections.
    const mainFile = join(dir, "src/main.ts");
    const main = readFileSync(mainFile, "utf8");
    writeFileSync(
      mainFile,
      main.replace(/\/\/ Webhooks \(`opgen[\s\S]*?\/\/ \+opgen:scaffold:webhooks\n/, ""),
    );
    expect(readFileSync(mainFile, "utf8")).not.toContain("scaffold:webhooks");
    const kFile = join(dir, "config/default/kustomization.yaml");
    const k = readFileSync(kFile, "utf8");
    writeFileSync(
      kFile,
      k
        .replace(/# \[WEBHOOK\][\s\S]*?#- \.\.\/certmanager\n/, "")
        .replace(/\n# \[WEBHOOK\][\s\S]*$/, "\n"),
    );
    expect(readFileSync(kFile, "utf8")).not.toMatch(
      /\.\.\/webhook|replacements|manager_webhook_patch/,
    );

    await ok(
      [
        "create",
        "webhook",
        "--group",
        "demo",
        "--version",
        "v1",
        "--kind",
        "AppCluster",
        "--defaulting",
      ],
      dir,
    );
    expect(readFileSync(mainFile, "utf8")).toContain(
      'setupAppClusterController(mgr);\n// +opgen:scaffold:controllers\nif (process.env.ENABLE_WEBHOOKS !== "false") {\n  setupAppClusterWebhookWithManager(mgr);\n}\n// +opgen:scaffold:webhooks\n',
    );
    expect((await runCli(["manifests"], dir)).exitCode).toBe(0);
    const { stdout } = await execa("kubectl", ["kustomize", join(dir, "config/default")]);
    const objects = parseAllDocuments(stdout).map((d) => d.toJS());
    const mutating = objects.find((o) => o.kind === "MutatingWebhookConfiguration");
    expect(mutating.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(
      "old-op-system/old-op-serving-cert",
    );
    expect(
      objects.find((o) => o.kind === "Certificate" && o.metadata.name === "old-op-serving-cert")
        .spec.dnsNames,
    ).toEqual([
      "old-op-webhook-service.old-op-system.svc",
      "old-op-webhook-service.old-op-system.svc.cluster.local",
    ]);
  }, 60_000);
});

describe("opgen create webhook --conversion alone, in a multigroup project", () => {
  it("renders without config/webhook/manifests.yaml, and lists it once an admission webhook exists", async () => {
    const dir = join(tempDir(), "multi-op");
    mkdirSync(dir);
    await ok(
      ["init", "--domain", "example.com", "--license", "none", "--multigroup", "--skip-install"],
      dir,
    );
    await ok(["create", "api", "--group", "ship", "--version", "v1", "--kind", "Frigate"], dir);
    await ok(
      [
        "create",
        "api",
        "--group",
        "ship",
        "--version",
        "v2",
        "--kind",
        "Frigate",
        "--controller=false",
      ],
      dir,
    );
    const frigate = (...flags: string[]) => [
      "create",
      "webhook",
      "--group",
      "ship",
      "--version",
      "v1",
      "--kind",
      "Frigate",
      ...flags,
    ];
    await ok(frigate("--conversion", "--spoke", "v2"), dir);
    const read = (path: string) => readFileSync(join(dir, path), "utf8");
    expect(read("config/webhook/kustomization.yaml")).toBe("resources:\n- service.yaml\n");
    expect(read("src/webhooks/ship/v1/frigate.webhook.ts")).toContain(
      'import { FrigateV2Conversion } from "../../../api/ship/v2/frigate.conversion.js";',
    );
    expect(read("test/webhooks/ship/v1/frigate.webhook.test.ts")).toContain(
      'webhooks: { paths: ["config/webhook", "config/crd/patches"] },',
    );
    expect(parse(read("config/crd/kustomization.yaml")).patches).toEqual([
      { path: "patches/webhook_in_ship_frigates.yaml" },
    ]);
    expect((await runCli(["manifests"], dir)).exitCode).toBe(0);
    const render = async () =>
      parseAllDocuments(
        (await execa("kubectl", ["kustomize", join(dir, "config/default")])).stdout,
      ).map((d) => d.toJS());
    let objects = await render();
    expect(objects.filter((o) => o.kind.endsWith("WebhookConfiguration"))).toEqual([]);
    const crd = objects.find((o) => o.kind === "CustomResourceDefinition");
    expect(crd.spec.conversion.strategy).toBe("Webhook");
    expect(crd.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(
      "multi-op-system/multi-op-serving-cert",
    );

    await ok(frigate("--programmatic-validation"), dir);
    expect(read("config/webhook/kustomization.yaml")).toBe(
      "resources:\n- manifests.yaml\n- service.yaml\n",
    );
    expect((await runCli(["manifests"], dir)).exitCode).toBe(0);
    objects = await render();
    const validating = objects.find((o) => o.kind === "ValidatingWebhookConfiguration");
    expect(validating.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(
      "multi-op-system/multi-op-serving-cert",
    );
    expect(validating.webhooks[0].clientConfig.service.path).toBe(
      "/validate-ship-example-com-v1-frigate",
    );
  }, 60_000);
});

describe("a generated project with webhooks", () => {
  const dir = join(tempDir("opgen-e2e-"), "webhook-op");

  async function sh(cmd: string, args: string[]) {
    const result = await execa(cmd, args, {
      cwd: dir,
      reject: false,
      all: true,
      env: { CI: "true" },
    });
    if (result.exitCode !== 0) {
      throw new Error(`${cmd} ${args.join(" ")} failed (${result.exitCode}):\n${result.all}`);
    }
    return result;
  }

  beforeAll(async () => {
    mkdirSync(dir);
    // npm install may print to stderr: only the exit code matters here.
    const init = await runCli(["init", "--domain", "example.com"], dir);
    expect(init.exitCode, init.stderr).toBe(0);
    await ok(["create", "api", "--group", "demo", "--version", "v1", "--kind", "AppCluster"], dir);
    await ok(
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
    await ok(
      [
        "create",
        "webhook",
        "--group",
        "demo",
        "--version",
        "v1",
        "--kind",
        "AppCluster",
        "--defaulting",
        "--programmatic-validation",
        "--conversion",
        "--spoke",
        "v2",
      ],
      dir,
    );
    // One type per kind, a custom path, a cluster-scoped kind and two spokes.
    const demo = (...args: string[]) => [...args.slice(0, 2), "--group", "demo", ...args.slice(2)];
    await ok(demo("create", "api", "--version", "v1", "--kind", "Alpha"), dir);
    await ok(demo("create", "api", "--version", "v1", "--kind", "Beta", "--namespaced=false"), dir);
    await ok(demo("create", "api", "--version", "v1", "--kind", "Gamma"), dir);
    for (const v of ["v2", "v3"]) {
      await ok(demo("create", "api", "--version", v, "--kind", "Gamma", "--controller=false"), dir);
    }
    await ok(
      demo(
        "create",
        "webhook",
        "--version",
        "v1",
        "--kind",
        "Alpha",
        "--defaulting",
        "--defaulting-path",
        "/custom-mutate-alpha",
      ),
      dir,
    );
    await ok(
      demo("create", "webhook", "--version", "v1", "--kind", "Beta", "--programmatic-validation"),
      dir,
    );
    await ok(
      demo(
        "create",
        "webhook",
        "--version",
        "v1",
        "--kind",
        "Gamma",
        "--conversion",
        "--spoke",
        "v2,v3",
      ),
      dir,
    );
  }, 300_000);

  it("builds, and its manifests are up to date", async () => {
    await sh("npm", ["run", "build"]);
    await sh("node", [CLI, "manifests", "--check"]);
  }, 180_000);

  it("passes its own webhook tests against envtest: defaulting, validation, denial, conversion, each alone too", async () => {
    // vitest colours its report when the environment asks for it: compare the plain text.
    const all = stripVTControlCharacters((await sh("npm", ["test"])).all);
    expect(all).toContain("test/webhooks/v1/appcluster.webhook.test.ts (4 tests)");
    expect(all).toContain("test/webhooks/v1/alpha.webhook.test.ts (1 test)");
    expect(all).toContain("test/webhooks/v1/beta.webhook.test.ts (2 tests)");
    expect(all).toContain("test/webhooks/v1/gamma.webhook.test.ts (2 tests)");
    // The webhook tests and the four controller tests.
    expect(all).toMatch(/Tests {2}13 passed \(13\)/);
  }, 180_000);
});
