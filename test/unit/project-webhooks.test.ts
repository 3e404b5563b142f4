/** PROJECT `webhooks:`: Kubebuilder's merge rules, the "already exists" check, and its key order. */
import { describe, expect, it } from "vitest";
import { type ProjectConfig, renderProjectFile } from "../../src/project/project-file.js";
import {
  existingWebhookTypes,
  mergeWebhooks,
  readWebhooks,
  type WebhookRequest,
} from "../../src/project/webhooks.js";

const none: WebhookRequest = { defaulting: false, validation: false, conversion: false, spoke: [] };

describe("mergeWebhooks", () => {
  it("records a first run with only the types asked for", () => {
    expect(mergeWebhooks(undefined, { ...none, defaulting: true, validation: true })).toEqual({
      defaulting: true,
      validation: true,
      webhookVersion: "v1",
    });
  });

  it("ORs booleans, unions spokes in order and replaces a custom path only when given", () => {
    const current = mergeWebhooks(undefined, {
      ...none,
      defaulting: true,
      defaultingPath: "/custom-mutate",
      conversion: true,
      spoke: ["v2"],
    });
    expect(
      mergeWebhooks(current, { ...none, validation: true, conversion: true, spoke: ["v3", "v2"] }),
    ).toEqual({
      conversion: true,
      defaulting: true,
      defaultingPath: "/custom-mutate",
      spoke: ["v2", "v3"],
      validation: true,
      webhookVersion: "v1",
    });
    expect(
      mergeWebhooks(current, { ...none, defaulting: true, defaultingPath: "/other" })
        .defaultingPath,
    ).toBe("/other");
  });
});

describe("existingWebhookTypes", () => {
  it("names each requested type the resource has already, in Kubebuilder's order", () => {
    const current = {
      defaulting: true,
      conversion: true,
      spoke: ["v2"],
      webhookVersion: "v1" as const,
    };
    expect(existingWebhookTypes(current, { ...none, validation: true })).toEqual([]);
    expect(
      existingWebhookTypes(current, {
        ...none,
        defaulting: true,
        validation: true,
        conversion: true,
        spoke: ["v3"],
      }),
    ).toEqual(["defaulting", "conversion"]);
    expect(existingWebhookTypes(undefined, { ...none, defaulting: true })).toEqual([]);
  });
});

describe("readWebhooks", () => {
  const resource = {
    group: "demo",
    version: "v1",
    kind: "AppCluster",
    domain: "example.com",
    plural: "appclusters",
  };

  it("reads Kubebuilder's entry and leaves out false values", () => {
    expect(
      readWebhooks({
        ...resource,
        webhooks: { defaulting: true, validation: false, webhookVersion: "v1" },
      }),
    ).toEqual({ defaulting: true, webhookVersion: "v1" });
    expect(readWebhooks(resource)).toBeUndefined();
  });

  it.each([
    [{ defaulting: "yes" }, /"defaulting" must be true or false/],
    [{ spoke: "v2" }, /"spoke" must be a list of versions/],
    [{ defaultingPath: 3 }, /"defaultingPath" must be a string/],
    [{ defaulting: true, webhookVersion: "v1beta1" }, /webhookVersion "v1beta1" is not supported/],
    [["x"], /is not a mapping/],
  ])("refuses a hand-edited %j with a one-line fix", (webhooks, message) => {
    expect(() => readWebhooks({ ...resource, webhooks } as never)).toThrow(message);
  });
});

describe("PROJECT rendering", () => {
  it("writes webhooks: with Kubebuilder's key order", () => {
    const config: ProjectConfig = {
      version: "3",
      cliVersion: "0.1.0",
      domain: "example.com",
      layout: ["typescript.opgen.io/v1"],
      projectName: "demo",
      resources: [
        {
          domain: "example.com",
          group: "demo",
          kind: "AppCluster",
          plural: "appclusters",
          version: "v1",
          webhooks: mergeWebhooks(undefined, {
            defaulting: true,
            validation: true,
            validationPath: "/custom-validate",
            conversion: true,
            spoke: ["v2"],
          }),
        },
      ],
    };
    expect(renderProjectFile(config)).toContain(`  version: v1
  webhooks:
    conversion: true
    defaulting: true
    spoke:
    - v2
    validation: true
    validationPath: /custom-validate
    webhookVersion: v1
`);
  });
});
