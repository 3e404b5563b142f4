/**
 * `create webhook`'s checks, in Kubebuilder's order (flags, then the resource, then what exists,
 * then the spokes), each refusing before any file is planned.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  planCreateWebhook,
  type WebhookOptions,
} from "../../src/generators/scaffold/webhook-plan.js";
import type {
  ProjectConfig,
  ProjectResource,
  ProjectWebhooks,
} from "../../src/project/project-file.js";

const resource = (version: string, webhooks?: ProjectWebhooks): ProjectResource => ({
  api: { crdVersion: "v1" as const, namespaced: true },
  domain: "example.com",
  group: "demo",
  kind: "AppCluster",
  path: `src/api/${version}`,
  plural: "appclusters",
  version,
  ...(webhooks ? { webhooks } : {}),
});

const project = (
  resources = [resource("v1", { defaulting: true, webhookVersion: "v1" })],
): ProjectConfig => ({
  version: "3",
  cliVersion: "0.1.0",
  domain: "example.com",
  layout: ["typescript.opgen.io/v1"],
  projectName: "demo",
  resources,
});

const base: WebhookOptions = {
  group: "demo",
  version: "v1",
  kind: "AppCluster",
  defaulting: false,
  validation: false,
  conversion: false,
  spoke: [],
  force: false,
};

/** A root holding the kind's types (and no other scaffold file: checks come before any read). */
function root(...versions: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "opgen-plan-"));
  for (const v of versions) {
    mkdirSync(join(dir, "src/api", v), { recursive: true });
    writeFileSync(
      join(dir, "src/api", v, "appcluster.types.ts"),
      "export interface AppCluster {}\n",
    );
  }
  return dir;
}

const refuse = (options: Partial<WebhookOptions>, p = project(), dir = root("v1")) =>
  expect(() => planCreateWebhook(dir, p, { ...base, ...options }));

describe("planCreateWebhook refuses, in Kubebuilder's order", () => {
  it("no webhook type, before anything else", () => {
    refuse({ kind: "Unknown" }).toThrow(
      /^opgen create webhook requires at least one of --defaulting, --programmatic-validation and --conversion$/,
    );
  });

  it("a path flag without its type, before looking up the kind", () => {
    refuse({ kind: "Unknown", validation: true, defaultingPath: "/p" }).toThrow(
      /^--defaulting-path can only be used with --defaulting$/,
    );
    refuse({ kind: "Unknown", defaulting: true, validationPath: "/p" }).toThrow(
      /^--validation-path can only be used with --programmatic-validation$/,
    );
    refuse({ kind: "Unknown", defaulting: true, spoke: ["v2"] }).toThrow(
      /^--spoke can only be used with --conversion$/,
    );
  });

  it("paths the API server or the webhook server cannot take", () => {
    refuse({ defaulting: true, force: true, defaultingPath: "/a_b" }).toThrow(
      /^invalid --defaulting-path "\/a_b": segments/,
    );
    refuse({ defaulting: true, force: true, defaultingPath: "/convert" }).toThrow(
      /conversion webhook is served there/,
    );
    refuse({
      defaulting: true,
      validation: true,
      force: true,
      defaultingPath: "/same",
      validationPath: "/same",
    }).toThrow(/must differ/);
  });

  it("an unknown kind, then an existing type, then a missing spoke", () => {
    refuse({ kind: "Other", defaulting: true }).toThrow(
      /^no API found for demo\/v1, Kind Other: run `opgen create api --group demo --version v1 --kind Other` first$/,
    );
    refuse({ defaulting: true, conversion: true, spoke: ["v9"] }).toThrow(
      /^defaulting webhook already exists for demo\/v1, Kind AppCluster; pass --force/,
    );
    refuse({ conversion: true, spoke: ["v9"] }).toThrow(
      /^invalid spoke version "v9": AppCluster has no API in demo\/v9/,
    );
  });

  it("a spoke in PROJECT without its types, and a hub without spokes", () => {
    const p = project([resource("v1"), resource("v2")]);
    refuse({ conversion: true, spoke: ["v2"] }, p, root("v1")).toThrow(
      /^invalid spoke version "v2": no API types for AppCluster at src\/api\/v2\/appcluster.types.ts/,
    );
    refuse({ conversion: true }, p, root("v1", "v2")).toThrow(
      /^--conversion needs the versions to convert to and from the hub v1/,
    );
  });

  it("a kind whose types file is gone", () => {
    refuse({ validation: true }, project(), root()).toThrow(
      /^no API types for AppCluster at src\/api\/v1\/appcluster.types.ts: webhooks need the kind's types/,
    );
  });
});
