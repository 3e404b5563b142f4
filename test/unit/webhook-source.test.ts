/** The TypeScript side of `create webhook`: the webhook file's updater, main.ts and @storageversion edits. */
import { defaultWebhookPath } from "@opgen/apimachinery/names";
import { describe, expect, it } from "vitest";
import { registerWebhook } from "../../src/generators/scaffold/main-ts-edit.js";
import {
  addStorageVersion,
  hasStorageVersion,
} from "../../src/generators/scaffold/storage-version-edit.js";
import {
  renderWebhookFile,
  updateWebhookFile,
  type WebhookSourceModel,
} from "../../src/generators/scaffold/webhook-source.js";

const model: WebhookSourceModel = {
  header: "",
  kind: "AppCluster",
  lowerKind: "appcluster",
  version: "v1",
  qualifiedGroup: "demo.example.com",
  plural: "appclusters",
  typesModule: "../../api/v1/appcluster.types.js",
  hubModule: "../../api/v1/appcluster.conversion.js",
  defaulting: false,
  validation: false,
  conversion: false,
  spokes: [
    {
      version: "v2",
      module: "../../api/v2/appcluster.conversion.js",
      name: "AppClusterV2Conversion",
    },
  ],
};

describe("webhook file", () => {
  it("derives controller-runtime's default paths", () => {
    expect(defaultWebhookPath("mutate", "demo.example.com", "v1", "appcluster")).toBe(
      "/mutate-demo-example-com-v1-appcluster",
    );
  });

  it("adding types one by one gives the file a one-shot run writes", () => {
    const all = {
      ...model,
      defaulting: true,
      validation: true,
      conversion: true,
      validationPath: "/v-ac",
    };
    for (const order of [
      ["conversion", "defaulting", "validation"],
      ["defaulting", "validation", "conversion"],
      ["validation", "conversion", "defaulting"],
    ] as const) {
      const first = order[0];
      let text = renderWebhookFile({
        ...all,
        defaulting: first === "defaulting",
        validation: first === "validation",
        conversion: first === "conversion",
      });
      for (const type of order.slice(1)) text = updateWebhookFile(text, "w.ts", all, [type]);
      const oneShot = renderWebhookFile(all);
      // Same imports, registrations and classes; only their order may differ.
      const lines = (t: string) =>
        t
          .split("\n")
          .filter((l) => l.trim() !== "")
          .sort();
      expect(lines(text), order.join(",")).toEqual(lines(oneShot));
    }
  });

  it("keeps the user's code and refuses a file without the setup function", () => {
    const text = `${renderWebhookFile({ ...model, defaulting: true })}\nexport const mine = 1;\n`;
    const out = updateWebhookFile(text, "w.ts", { ...model, validation: true }, ["validation"]);
    expect(out).toContain("export const mine = 1;\n");
    expect(out).toContain("export class AppClusterCustomValidator");
    expect(() =>
      updateWebhookFile("export const x = 1;\n", "src/webhooks/v1/appcluster.webhook.ts", model, [
        "defaulting",
      ]),
    ).toThrow(
      /^src\/webhooks\/v1\/appcluster.webhook.ts: no function setupAppClusterWebhookWithManager to register the defaulting webhook in; restore it or pass --force/,
    );
  });
});

describe("registerWebhook (main.ts)", () => {
  const main = `import { createManager } from "@opgen/runtime";
// +opgen:scaffold:imports

const mgr = createManager({});
// +opgen:scaffold:controllers
// +opgen:scaffold:webhooks

await mgr.start();
`;
  const v1 = {
    module: "./webhooks/v1/appcluster.webhook.js",
    setupFunction: "setupAppClusterWebhookWithManager",
    alias: "setupAppClusterV1WebhookWithManager",
  };

  it("imports and calls the setup behind ENABLE_WEBHOOKS, once", () => {
    const out = registerWebhook(main, "src/main.ts", v1);
    expect(out).toContain(
      '// +opgen:scaffold:controllers\nif (process.env.ENABLE_WEBHOOKS !== "false") {\n  setupAppClusterWebhookWithManager(mgr);\n}\n// +opgen:scaffold:webhooks\n',
    );
    expect(registerWebhook(out, "src/main.ts", v1)).toBe(out);
  });

  it("aliases the same kind's setup from a second version", () => {
    const one = registerWebhook(main, "src/main.ts", v1);
    const two = registerWebhook(one, "src/main.ts", {
      module: "./webhooks/v2/appcluster.webhook.js",
      setupFunction: "setupAppClusterWebhookWithManager",
      alias: "setupAppClusterV2WebhookWithManager",
    });
    expect(two).toContain(
      'import { setupAppClusterWebhookWithManager as setupAppClusterV2WebhookWithManager } from "./webhooks/v2/appcluster.webhook.js";',
    );
    expect(two).toContain("  setupAppClusterV2WebhookWithManager(mgr);\n");
  });

  it("says where the insertion point went when neither marker is there", () => {
    expect(() => registerWebhook("const mgr = 1;\n", "src/main.ts", v1)).toThrow(
      /^src\/main.ts: insertion point `\/\/ \+opgen:scaffold:imports` not found; put it back on its own line/,
    );
  });
});

describe("@storageversion on the hub", () => {
  it("adds the marker at the end of the root type's JSDoc, once", () => {
    const text =
      "/**\n * AppCluster is the Schema.\n * @resource scope=Namespaced\n */\nexport interface AppCluster {\n  spec: object;\n}\n";
    const out = addStorageVersion(text, "t.ts", "AppCluster");
    expect(out).toBe(
      "/**\n * AppCluster is the Schema.\n * @resource scope=Namespaced\n * @storageversion\n */\nexport interface AppCluster {\n  spec: object;\n}\n",
    );
    expect(hasStorageVersion(out, "AppCluster")).toBe(true);
    expect(addStorageVersion(out, "t.ts", "AppCluster")).toBe(out);
  });

  it("handles one-line and missing JSDoc, and accepts Kubebuilder's spelling", () => {
    expect(addStorageVersion("/** A. */\nexport interface A {}\n", "t.ts", "A")).toBe(
      "/**\n * A.\n * @storageversion\n */\nexport interface A {}\n",
    );
    expect(addStorageVersion("export interface A {}\n", "t.ts", "A")).toBe(
      "/** @storageversion */\nexport interface A {}\n",
    );
    expect(
      hasStorageVersion("/** @kubebuilder:storageversion */\nexport interface A {}\n", "A"),
    ).toBe(true);
    expect(() =>
      addStorageVersion("export interface B {}\n", "src/api/v1/a.types.ts", "A"),
    ).toThrow(/^src\/api\/v1\/a.types.ts: no interface A to mark @storageversion/);
  });
});
