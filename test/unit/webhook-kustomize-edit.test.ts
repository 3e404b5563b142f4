/**
 * The config/ edits of `opgen create webhook` against Kubebuilder's own files: its scaffold before
 * `create webhook` must become its project-v4 after, byte for byte.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderTemplate } from "../../src/generators/scaffold/render.js";
import {
  addResourceFirst,
  enableCrdConversionPatch,
  enableWebhookDefaults,
} from "../../src/generators/scaffold/webhook-kustomize-edit.js";
import { WEBHOOK_FIXTURES } from "../helpers/fixtures.js";

// Kubebuilder's scaffold before and after `create webhook` (test/fixtures/webhook/SOURCES.md).
const FIXTURES = join(WEBHOOK_FIXTURES, "kubebuilder");
const fixture = (path: string) => readFileSync(join(FIXTURES, path), "utf8");
const KB = "+kubebuilder:scaffold:";

/** Kubebuilder's project-v4 has Captain (defaulting+validation) and FirstMate (conversion). */
const projectV4 = {
  defaulting: true,
  validation: true,
  conversionCrds: ["firstmates.crew.testproject.org"],
  markerPrefix: KB,
};

describe("enableWebhookDefaults (config/default/kustomization.yaml)", () => {
  it("turns Kubebuilder's scaffold into Kubebuilder's project-v4, byte for byte", () => {
    const before = fixture("before-webhook/config/default/kustomization.yaml");
    const after = fixture("project-v4/config/default/kustomization.yaml");
    const named = (text: string) =>
      text
        .replace("namespace: project-v4-system", "namespace: project-system")
        .replace("namePrefix: project-v4-", "namePrefix: project-");
    expect(enableWebhookDefaults(before, "k.yaml", projectV4)).toBe(named(after));
  });

  it("is idempotent", () => {
    const before = fixture("before-webhook/config/default/kustomization.yaml");
    const once = enableWebhookDefaults(before, "k.yaml", projectV4);
    expect(enableWebhookDefaults(once, "k.yaml", projectV4)).toBe(once);
  });

  it("uncomments only the CA injection of the webhook types asked for", () => {
    const before = fixture("before-webhook/config/default/kustomization.yaml");
    const out = enableWebhookDefaults(before, "k.yaml", {
      defaulting: true,
      validation: false,
      conversionCrds: [],
      markerPrefix: KB,
    });
    const replacements = parse(out).replacements as {
      source: { kind: string; fieldPath: string };
      targets: { select: { kind: string } }[];
    }[];
    expect(replacements.map((r) => [r.source.kind, r.targets.map((t) => t.select.kind)])).toEqual([
      ["Service", ["Certificate"]],
      ["Service", ["Certificate"]],
      ["Certificate", ["MutatingWebhookConfiguration"]],
      ["Certificate", ["MutatingWebhookConfiguration"]],
    ]);
    expect(out).toContain(
      "# - source: # Uncomment the following block if you have a ValidatingWebhook",
    );
    // Adding validation later uncomments its blocks and keeps the rest.
    const later = enableWebhookDefaults(out, "k.yaml", {
      defaulting: true,
      validation: true,
      conversionCrds: [],
      markerPrefix: KB,
    });
    expect(parse(later).replacements).toHaveLength(6);
    expect(later).not.toContain(
      "# - source: # Uncomment the following block if you have a ValidatingWebhook",
    );
  });

  it("adds a second conversion CRD to the live replacement (which Kubebuilder cannot)", () => {
    const before = fixture("before-webhook/config/default/kustomization.yaml");
    const one = enableWebhookDefaults(before, "k.yaml", projectV4);
    const two = enableWebhookDefaults(one, "k.yaml", {
      ...projectV4,
      conversionCrds: ["navigators.crew.testproject.org"],
    });
    const crdTargets = (
      parse(two).replacements as { targets: { select: { kind: string; name?: string } }[] }[]
    )
      .flatMap((r) => r.targets.map((t) => t.select))
      .filter((s) => s.kind === "CustomResourceDefinition")
      .map((s) => s.name);
    expect(crdTargets).toEqual([
      "firstmates.crew.testproject.org",
      "navigators.crew.testproject.org",
      "firstmates.crew.testproject.org",
      "navigators.crew.testproject.org",
    ]);
    expect(two).toContain("# +kubebuilder:scaffold:crdkustomizecainjectionns\n");
    expect(
      enableWebhookDefaults(two, "k.yaml", {
        ...projectV4,
        conversionCrds: ["navigators.crew.testproject.org"],
      }),
    ).toBe(two);
  });

  it("switches on opgen's own scaffold (init template) the same way", () => {
    const text = renderTemplate("init/config/default/kustomization.yaml.hbs", {
      projectName: "demo",
    });
    const out = enableWebhookDefaults(text, "k.yaml", {
      defaulting: true,
      validation: true,
      conversionCrds: ["appclusters.demo.example.com"],
    });
    const doc = parse(out);
    expect(doc.resources).toEqual([
      "../crd",
      "../rbac",
      "../manager",
      "../webhook",
      "../certmanager",
      "metrics_service.yaml",
    ]);
    expect(doc.patches.map((p: { path: string }) => p.path)).toEqual([
      "manager_metrics_patch.yaml",
      "manager_webhook_patch.yaml",
    ]);
    expect(doc.replacements).toHaveLength(8);
    // Only lines changed (uncommented): the user's comments and order stay.
    expect(out.split("\n")).toHaveLength(text.split("\n").length + 18);
  });

  it("adds the entries structurally to a kustomization without Kubebuilder's commented parts", () => {
    const old = `namespace: demo-system
namePrefix: demo-
resources:
- ../crd
- ../manager # mine
patches:
- path: manager_metrics_patch.yaml
  target:
    kind: Deployment
`;
    const out = enableWebhookDefaults(old, "k.yaml", {
      defaulting: false,
      validation: true,
      conversionCrds: ["appclusters.demo.example.com"],
    });
    const doc = parse(out);
    expect(out).toContain("- ../manager # mine");
    expect(doc.resources).toEqual(["../crd", "../manager", "../webhook", "../certmanager"]);
    expect(doc.patches[1]).toEqual({
      path: "manager_webhook_patch.yaml",
      target: { kind: "Deployment" },
    });
    expect(
      doc.replacements.map(
        (r: { source: { kind: string; fieldPath: string } }) =>
          `${r.source.kind} ${r.source.fieldPath}`,
      ),
    ).toEqual([
      "Service .metadata.name",
      "Service .metadata.namespace",
      "Certificate .metadata.namespace",
      "Certificate .metadata.name",
    ]);
    expect(doc.replacements[2].targets.map((t: { select: object }) => t.select)).toEqual([
      { kind: "ValidatingWebhookConfiguration" },
      { kind: "CustomResourceDefinition", name: "appclusters.demo.example.com" },
    ]);
    expect(
      enableWebhookDefaults(out, "k.yaml", {
        defaulting: false,
        validation: true,
        conversionCrds: ["appclusters.demo.example.com"],
      }),
    ).toBe(out);
  });

  it("refuses a kustomization that is not YAML", () => {
    expect(() =>
      enableWebhookDefaults("resources: [", "config/default/kustomization.yaml", {
        defaulting: true,
        validation: false,
        conversionCrds: [],
      }),
    ).toThrow(
      /^config\/default\/kustomization.yaml:1:13: not valid YAML: [^\n]*; fix it and run again$/,
    );
  });
});

describe("enableCrdConversionPatch (config/crd/kustomization.yaml)", () => {
  it("lists the patch and kustomizeconfig.yaml as Kubebuilder's project-v4 does", () => {
    const text =
      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- bases/crew.testproject.org_firstmates.yaml\n";
    const out = enableCrdConversionPatch(text, "k.yaml", "patches/webhook_in_firstmates.yaml");
    const want = parse(fixture("project-v4/config/crd/kustomization.yaml"));
    const got = parse(out);
    expect(got.patches).toEqual(want.patches);
    expect(got.configurations).toEqual(want.configurations);
    expect(enableCrdConversionPatch(out, "k.yaml", "patches/webhook_in_firstmates.yaml")).toBe(out);
    const second = enableCrdConversionPatch(out, "k.yaml", "patches/webhook_in_navigators.yaml");
    expect(parse(second).patches).toEqual([
      { path: "patches/webhook_in_firstmates.yaml" },
      { path: "patches/webhook_in_navigators.yaml" },
    ]);
    expect(parse(second).configurations).toEqual(["kustomizeconfig.yaml"]);
  });

  it("fills Kubebuilder's `patches:` left with only comments under it", () => {
    const out = enableCrdConversionPatch(
      fixture("before-webhook/config/crd/kustomization.yaml"),
      "k.yaml",
      "patches/webhook_in_memcacheds.yaml",
    );
    expect(parse(out).patches).toEqual([{ path: "patches/webhook_in_memcacheds.yaml" }]);
  });
});

describe("addResourceFirst", () => {
  it("inserts allow-webhook-traffic.yaml first, as Kubebuilder does, once", () => {
    const before = fixture("before-webhook/config/network-policy/kustomization.yaml");
    const out = addResourceFirst(before, "k.yaml", "allow-webhook-traffic.yaml");
    expect(out).toBe(fixture("project-v4/config/network-policy/kustomization.yaml"));
    expect(addResourceFirst(out, "k.yaml", "allow-webhook-traffic.yaml")).toBe(out);
  });
});
