import { describe, expect, it } from "vitest";
import { addKustomizeResource } from "../../src/generators/scaffold/kustomization-edit.js";

describe("addKustomizeResource", () => {
  it("turns an empty flow list into a block list", () => {
    const text =
      "# CRDs of the project\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n";
    expect(addKustomizeResource(text, "bases/a.yaml", "k.yaml")).toBe(
      "# CRDs of the project\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- bases/a.yaml\n",
    );
  });

  it("appends after existing entries and keeps comments", () => {
    const text =
      "resources:\n# the account\n- service_account.yaml\n- role.yaml # generated\nnamespace: x\n";
    const out = addKustomizeResource(text, "x_editor_role.yaml", "k.yaml", { comment: " helpers" });
    expect(out).toBe(
      "resources:\n# the account\n- service_account.yaml\n- role.yaml # generated\n# helpers\n- x_editor_role.yaml\nnamespace: x\n",
    );
  });

  it("is idempotent", () => {
    const text = "resources:\n- a.yaml\n";
    expect(addKustomizeResource(text, "a.yaml", "k.yaml")).toBe(text);
    const once = addKustomizeResource(text, "b.yaml", "k.yaml");
    expect(addKustomizeResource(once, "b.yaml", "k.yaml")).toBe(once);
  });

  it("adds resources when the key is missing", () => {
    expect(addKustomizeResource("kind: Kustomization\n", "a.yaml", "k.yaml")).toBe(
      "kind: Kustomization\nresources:\n- a.yaml\n",
    );
  });

  it("refuses broken YAML and a non-list resources key", () => {
    expect(() =>
      addKustomizeResource("resources: [", "a", "config/crd/kustomization.yaml"),
    ).toThrow(
      /^config\/crd\/kustomization.yaml:1:13: not valid YAML: [^\n]*; fix it and run again$/,
    );
    expect(() => addKustomizeResource("resources: x\n", "a", "k.yaml")).toThrow(
      /"resources" is not a list/,
    );
  });
});
