/**
 * `opgen manifests` with webhook markers: config/webhook/manifests.yaml is written with the CRDs
 * and the role, `--check` reports it missing, changed or no longer generated, a marker error
 * fails the run with nothing written, and a project without webhook markers gets no file (an
 * existing one is left alone, as controller-gen leaves it).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runManifests } from "../../src/commands/manifests.js";

const JOBS = join(import.meta.dirname, "../golden/crd/jobs");
const MANIFESTS = "config/webhook/manifests.yaml";

const WEBHOOK_SOURCE = [
  "/**",
  " * Defaults jobs.",
  " * @webhook path=/mutate-testdata-kubebuilder-io-v1-job mutating=true failurePolicy=fail",
  " *   sideEffects=None groups=testdata.kubebuilder.io resources=jobs verbs=create;update",
  " *   versions=v1 name=mjob-v1.kb.io admissionReviewVersions=v1",
  " */",
  "export class JobCustomDefaulter {}",
  "",
  "/**",
  " * @kubebuilder:webhook:path=/validate-testdata-kubebuilder-io-v1-job,mutating=false,failurePolicy=fail,sideEffects=None,groups=testdata.kubebuilder.io,resources=jobs,verbs=create;update;delete,versions=v1,name=vjob-v1.kb.io,admissionReviewVersions=v1",
  " */",
  "export class JobCustomValidator {}",
  "",
].join("\n");

let dir: string;
let out: string;
let err: string;
const io = { out: (t: string) => (out += t), err: (t: string) => (err += t) };
const webhookFile = () => join(dir, "src/webhooks/v1/job.webhook.ts");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "opgen-webhook-manifests-"));
  cpSync(JOBS, dir, { recursive: true });
  mkdirSync(join(dir, "src/webhooks/v1"), { recursive: true });
  writeFileSync(webhookFile(), WEBHOOK_SOURCE);
  out = "";
  err = "";
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("opgen manifests: webhooks", () => {
  it("writes config/webhook/manifests.yaml with the other manifests, then --check passes", async () => {
    await runManifests({ projectDir: dir }, io);
    const text = readFileSync(join(dir, MANIFESTS), "utf8");
    expect(text).toBe(
      [
        "---",
        "apiVersion: admissionregistration.k8s.io/v1",
        "kind: MutatingWebhookConfiguration",
        "metadata:",
        "  name: mutating-webhook-configuration",
        "webhooks:",
        "- admissionReviewVersions:",
        "  - v1",
        "  clientConfig:",
        "    service:",
        "      name: webhook-service",
        "      namespace: system",
        "      path: /mutate-testdata-kubebuilder-io-v1-job",
        "  failurePolicy: Fail",
        "  name: mjob-v1.kb.io",
        "  rules:",
        "  - apiGroups:",
        "    - testdata.kubebuilder.io",
        "    apiVersions:",
        "    - v1",
        "    operations:",
        "    - CREATE",
        "    - UPDATE",
        "    resources:",
        "    - jobs",
        "  sideEffects: None",
        "---",
        "apiVersion: admissionregistration.k8s.io/v1",
        "kind: ValidatingWebhookConfiguration",
        "metadata:",
        "  name: validating-webhook-configuration",
        "webhooks:",
        "- admissionReviewVersions:",
        "  - v1",
        "  clientConfig:",
        "    service:",
        "      name: webhook-service",
        "      namespace: system",
        "      path: /validate-testdata-kubebuilder-io-v1-job",
        "  failurePolicy: Fail",
        "  name: vjob-v1.kb.io",
        "  rules:",
        "  - apiGroups:",
        "    - testdata.kubebuilder.io",
        "    apiVersions:",
        "    - v1",
        "    operations:",
        "    - CREATE",
        "    - UPDATE",
        "    - DELETE",
        "    resources:",
        "    - jobs",
        "  sideEffects: None",
        "",
      ].join("\n"),
    );
    expect(err).toContain(`wrote ${MANIFESTS}`);
    expect(existsSync(join(dir, "config/rbac/role.yaml"))).toBe(true);
    err = "";
    await runManifests({ projectDir: dir, check: true }, io);
    expect(err).toContain("up to date");
  });

  it("--check reports a missing file, then a stale one, with a diff, and writes nothing", async () => {
    await expect(runManifests({ projectDir: dir, check: true }, io)).rejects.toThrow(
      /3 files are out of date/,
    );
    expect(out).toContain(`+++ b/${MANIFESTS}`);
    expect(existsSync(join(dir, MANIFESTS))).toBe(false);

    await runManifests({ projectDir: dir }, io);
    writeFileSync(
      webhookFile(),
      WEBHOOK_SOURCE.replace("failurePolicy=fail", "failurePolicy=ignore"),
    );
    out = "";
    await expect(runManifests({ projectDir: dir, check: true }, io)).rejects.toThrow(
      "manifests --check: 1 file is out of date; run opgen manifests",
    );
    expect(out).toContain(`--- a/${MANIFESTS}`);
    expect(out).toContain("-  failurePolicy: Fail\n+  failurePolicy: Ignore\n");
    expect(readFileSync(join(dir, MANIFESTS), "utf8")).toContain("failurePolicy: Fail");
  });

  it("without webhook markers writes no file; one left over is kept and reported, and fails --check", async () => {
    rmSync(webhookFile());
    await runManifests({ projectDir: dir }, io);
    expect(existsSync(join(dir, MANIFESTS))).toBe(false);
    expect(err).not.toContain("webhook");

    writeFileSync(webhookFile(), WEBHOOK_SOURCE);
    await runManifests({ projectDir: dir }, io);
    const written = readFileSync(join(dir, MANIFESTS), "utf8");
    rmSync(webhookFile());
    err = "";
    await runManifests({ projectDir: dir }, io);
    expect(readFileSync(join(dir, MANIFESTS), "utf8")).toBe(written);
    expect(err).toContain(
      `opgen: ${MANIFESTS} is stale: no @webhook marker generates it; left as is (as controller-gen leaves it), delete it if the webhooks are gone`,
    );
    out = "";
    await expect(runManifests({ projectDir: dir, check: true }, io)).rejects.toThrow(
      /1 file is out of date/,
    );
    expect(out).toBe(
      `${MANIFESTS}: stale, no @webhook marker generates it; delete it (and its entry in config/webhook/kustomization.yaml) or restore the markers\n`,
    );
    rmSync(join(dir, MANIFESTS));
    await runManifests({ projectDir: dir, check: true }, io);
  });

  it("markers beside the API types are collected, and the CRD generator leaves them alone", async () => {
    rmSync(webhookFile());
    await runManifests({ projectDir: dir }, io);
    const crd = join(dir, "config/crd/bases/testdata.kubebuilder.io_jobs.yaml");
    const before = readFileSync(crd, "utf8");
    const types = join(dir, "src/api/v1beta1/job.types.ts");
    const marker = WEBHOOK_SOURCE.split("\n").slice(2, 5).join("\n");
    const text = readFileSync(types, "utf8");
    // On the root kind itself, where the CRD generator reads every tag.
    writeFileSync(types, text.replace(" * @resource", `${marker}\n * @resource`));
    await runManifests({ projectDir: dir }, io);
    expect(readFileSync(join(dir, MANIFESTS), "utf8")).toContain("name: mjob-v1.kb.io");
    expect(readFileSync(crd, "utf8")).toBe(before);
  });

  it("a folder where the file would be is not read as a stale file", async () => {
    rmSync(webhookFile());
    mkdirSync(join(dir, MANIFESTS), { recursive: true });
    await runManifests({ projectDir: dir }, io);
    await runManifests({ projectDir: dir, check: true }, io);
    expect(err).not.toContain("stale");
  });

  it("a file that is not webhook configurations is not reported", async () => {
    rmSync(webhookFile());
    mkdirSync(join(dir, "config/webhook"), { recursive: true });
    writeFileSync(join(dir, MANIFESTS), "# placeholder\n");
    await runManifests({ projectDir: dir }, io);
    await runManifests({ projectDir: dir, check: true }, io);
    expect(readFileSync(join(dir, MANIFESTS), "utf8")).toBe("# placeholder\n");
  });

  it("refuses a marker kube-apiserver would refuse, one line at the marker, writing nothing", async () => {
    writeFileSync(
      webhookFile(),
      WEBHOOK_SOURCE.replace("name=mjob-v1.kb.io", "name=mjob").replace(
        "path=/validate-testdata-kubebuilder-io-v1-job",
        "path=/Validate_Job",
      ),
    );
    await expect(runManifests({ projectDir: dir }, io)).rejects.toThrow(
      "manifests: 2 errors; nothing was written",
    );
    const lines = err.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      'src/webhooks/v1/job.webhook.ts:3:4: @webhook: kube-apiserver would refuse MutatingWebhookConfiguration mutating-webhook-configuration: webhooks[0].name: Invalid value: "mjob": should be a domain with at least three segments separated by dots',
    );
    expect(lines[1]).toMatch(
      /^src\/webhooks\/v1\/job\.webhook\.ts:10:4: @webhook: kube-apiserver would refuse ValidatingWebhookConfiguration validating-webhook-configuration: webhooks\[0\]\.clientConfig\.service\.path: Invalid value: "\/Validate_Job": segment\[0\]: a lowercase RFC 1123 subdomain must consist of/,
    );
    expect(existsSync(join(dir, MANIFESTS))).toBe(false);
    expect(existsSync(join(dir, "config/rbac/role.yaml"))).toBe(false);
  });
});
