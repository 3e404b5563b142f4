/**
 * Golden webhook manifests: each case under test/golden/webhook/ is a project whose `src/` holds
 * the markers of one controller-gen fixture (test/fixtures/webhook/), translated to opgen's
 * JSDoc form (or kept in the controller-gen spelling, which opgen accepts verbatim), and opgen's
 * `config/webhook/manifests.yaml` is compared with the fixture's.
 *
 * - Kubebuilder's manifests are real controller-gen v0.21 output: byte for byte.
 * - controller-tools' goldens: byte for byte, and as parsed objects (upstream's test compares
 *   those). Two kinds of upstream file are hand-formatted: `reinvocationPolicy` moved after
 *   `timeoutSeconds` (compared with that one line moved back) and 4-space lists (compared with
 *   the objects laid out again).
 * - Five controller-tools goldens repeat a webhook name inside one configuration, which
 *   kube-apiserver refuses on create: opgen reports that at the marker and writes nothing, and
 *   the configurations it builds before that check still equal the golden.
 * - The invalid-* cases fail with controller-gen's reason, one line each, at the marker.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { collectWebhookMarkers } from "../../src/generators/webhook/collect.js";
import { buildConfigurations } from "../../src/generators/webhook/configurations.js";
import { generateWebhooks } from "../../src/generators/webhook/index.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";
import { listSourceFiles } from "../../src/source/project-files.js";
import { ProjectSources } from "../../src/source/project-sources.js";
import { toYamlDocuments } from "../../src/util/yaml.js";
import { WEBHOOK_FIXTURES } from "../helpers/fixtures.js";

const CASES = join(import.meta.dirname, "webhook");
const FIXTURES = WEBHOOK_FIXTURES;

const fixture = (path: string) => readFileSync(join(FIXTURES, path), "utf8");
const parsed = (yaml: string) => parseAllDocuments(yaml).map((d) => d.toJS());

/**
 * Upstream's hand-formatted goldens put `reinvocationPolicy` after `timeoutSeconds`; controller-gen
 * writes keys sorted, i.e. before `rules`. Moving that one line back is the only change.
 */
function withReinvocationPolicyInPlace(golden: string): string {
  const line = /^ {2}reinvocationPolicy: \w+\n/m.exec(golden);
  if (!line) return golden;
  const without = golden.slice(0, line.index) + golden.slice(line.index + line[0].length);
  const rules = without.lastIndexOf("\n  rules:\n", line.index) + 1;
  return without.slice(0, rules) + line[0] + without.slice(rules);
}

async function generate(name: string) {
  return generateWebhooks({ projectDir: join(CASES, name) });
}

/** The configurations controller-gen would write, before opgen's kube-apiserver checks. */
async function controllerGenView(name: string): Promise<string> {
  const projectDir = join(CASES, name);
  const sources = await ProjectSources.create(projectDir);
  const collected = collectWebhookMarkers(sources, listSourceFiles(projectDir, ["src"]));
  const built = buildConfigurations(collected.webhooks, collected.configurations);
  expect([...collected.diagnostics, ...built.diagnostics]).toEqual([]);
  return toYamlDocuments(built.configurations.map((c) => c.object));
}

describe("Kubebuilder's manifests (real controller-gen output), byte for byte", () => {
  it.each([
    ["project-v4", "kubebuilder/project-v4/config/webhook/manifests.yaml"],
    ["project-v4-multigroup", "kubebuilder/project-v4-multigroup/config/webhook/manifests.yaml"],
    ["multiversion-tutorial", "kubebuilder/multiversion-tutorial/config/webhook/manifests.yaml"],
  ])("%s", async (name, golden) => {
    const { files, diagnostics } = await generate(name);
    expect(diagnostics).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(["config/webhook/manifests.yaml"]);
    expect(files[0]!.content).toBe(fixture(golden));
  });
});

describe("controller-tools' valid goldens", () => {
  it.each([
    "valid-ordered",
    "valid-namespaceselector",
    "valid-objectselector",
    "valid-selectors-matchexpressions",
  ])("%s: byte for byte", async (name) => {
    const { files, diagnostics } = await generate(name);
    expect(diagnostics).toEqual([]);
    expect(files[0]!.content).toBe(fixture(`controller-tools/${name}/manifests.yaml`));
  });

  it.each(["valid-namespaceselector", "valid-objectselector", "valid-selectors-matchexpressions"])(
    "%s with opgen's selector arguments instead of patch: byte for byte",
    async (name) => {
      const { files, diagnostics } = await generate(`${name}-opgen`);
      expect(diagnostics).toEqual([]);
      expect(files[0]!.content).toBe(fixture(`controller-tools/${name}/manifests.yaml`));
    },
  );

  it("valid-crosspkg-stable: two folders give the sorted list (upstream's file has 4-space lists)", async () => {
    const { files, diagnostics } = await generate("valid-crosspkg-stable");
    expect(diagnostics).toEqual([]);
    const golden = fixture("controller-tools/valid-crosspkg-stable/manifests.yaml");
    expect(parsed(files[0]!.content)).toEqual(parsed(golden));
    // Same objects, controller-gen's layout: only the list indentation differs.
    expect(files[0]!.content).not.toBe(golden);
    expect(files[0]!.content).toBe(toYamlDocuments(parsed(golden)));
  });

  // Each repeats a validating webhook name; the line is the second marker's.
  const duplicates: [string, string, number][] = [
    ["controller-tools-top-level", "manifests.yaml", 9],
    ["valid", "valid/manifests.yaml", 9],
    ["valid-url", "valid-url/manifests.yaml", 9],
    ["valid-custom-name", "valid-custom-name/manifests.yaml", 9],
    ["valid-custom-service", "valid-custom-service/manifests.yaml", 9],
  ];
  it.each(duplicates)(
    "%s: equal to the golden, and refused for its duplicate webhook name",
    async (name, golden, line) => {
      const view = await controllerGenView(name);
      const expected = fixture(`controller-tools/${golden}`);
      expect(parsed(view)).toEqual(parsed(expected));
      expect(view).toBe(withReinvocationPolicyInPlace(expected));

      const { files, diagnostics } = await generate(name);
      expect(files).toEqual([]);
      expect(diagnostics.map(formatDiagnostic)).toEqual([
        `src/webhook.ts:${line}:4: @webhook: kube-apiserver would refuse ValidatingWebhookConfiguration ${name === "valid-custom-name" ? "bar" : "validating-webhook-configuration"}: webhooks[1].name: Duplicate value: "validation.cronjob.testdata.kubebuilder.io"; webhook names must be unique within one ValidatingWebhookConfiguration, rename one (e.g. validation-2.cronjob.testdata.kubebuilder.io)`,
      ]);
    },
  );
});

describe("controller-tools' invalid cases fail at the marker, with controller-gen's reason", () => {
  it.each([
    [
      "invalid-admissionReviewVersionsRequired",
      [
        'src/webhook.ts:4:4: @webhook: missing argument "admissionReviewVersions" (a list joined with ;)',
      ],
    ],
    [
      "invalid-sideEffects",
      [
        "src/webhook.ts:4:4: @webhook: sideEffects=Some is not allowed in admissionregistration.k8s.io/v1 webhook configurations; write sideEffects=None or NoneOnDryRun and skip side effects on dry-run requests",
      ],
    ],
    [
      "invalid-timeoutSeconds",
      [
        "src/webhook.ts:4:4: @webhook: timeoutSeconds=40: must be between 1 and 30 seconds (leave it out for the API server's default, 10)",
        "src/webhook.ts:14:4: @webhook: timeoutSeconds=-1: must be between 1 and 30 seconds (leave it out for the API server's default, 10)",
      ],
    ],
    [
      "invalid-v1beta1NotSupported",
      [
        "src/webhook.ts:4:4: @webhook: unsupported webhook version v1beta1: admissionregistration.k8s.io/v1 is the only one written; drop webhookVersions or write webhookVersions=v1",
      ],
    ],
    [
      "invalid-path-and-url",
      [
        "src/webhook.ts:4:4: @webhook: `url` or `path` is required, and not both: path= for the webhook Service (the usual), url= for an https endpoint outside the cluster",
      ],
    ],
  ])("%s", async (name, expected) => {
    const { files, diagnostics } = await generate(name);
    expect(files).toEqual([]);
    expect(diagnostics.map(formatDiagnostic)).toEqual(expected);
  });

  it("invalid-multiple-webhookconfigurations (which also repeats a webhook name)", async () => {
    const { files, diagnostics } = await generate("invalid-multiple-webhookconfigurations");
    expect(files).toEqual([]);
    const lines = diagnostics.map(formatDiagnostic);
    expect(lines).toContain(
      "src/webhook.ts:24:4: @webhookconfiguration: duplicate mutating configuration name bar: src/webhook.ts:19 already names it foo; keep one @webhookconfiguration mutating=true",
    );
    expect(lines).toHaveLength(2);
  });
});
