/**
 * webhookFor / conversionFor: the generated paths (controller-runtime's and Kubebuilder's rule),
 * custom paths checked against what the API server accepts, the refusals, registration on the
 * manager's webhook server, and the --webhook-cert-* flags.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { defineKind } from "../../src/api/kind.js";
import { conversionFor, webhookFor } from "../../src/builder/webhook.js";
import { nullLogger } from "../../src/log/logger.js";
import { managerOptionsFromArgs } from "../../src/manager/flags.js";
import { createManager } from "../../src/manager/manager.js";
import { checkWebhookPath, defaultingPath, validatingPath } from "../../src/webhook/paths.js";

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  spec?: { size?: number };
}
const WidgetKind = defineKind<Widget>({
  group: "demo.example.com",
  version: "v1",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});

function manager() {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: "c", server: "https://127.0.0.1:1", skipTLSVerify: false },
    { name: "u" },
  );
  return createManager({ kubeconfig: kc, logger: nullLogger, metricsBindAddress: "0" });
}

const noop = { default() {} };
const allowAll = { validateCreate() {}, validateUpdate() {}, validateDelete() {} };

describe("webhook paths", () => {
  it("follow /mutate-<group with dashes>-<version>-<lower-case kind>", () => {
    expect(defaultingPath(WidgetKind)).toBe("/mutate-demo-example-com-v1-appcluster");
    expect(validatingPath(WidgetKind)).toBe("/validate-demo-example-com-v1-appcluster");
    expect(defaultingPath({ group: "", version: "v1", kind: "Pod" })).toBe("/mutate--v1-pod");
  });

  it("accept only paths the API server takes for a service", () => {
    for (const ok of ["/", "/mutate-x", "/a/b-c/d1"])
      expect(() => checkWebhookPath(ok)).not.toThrow();
    for (const bad of ["", "mutate", "/Mutate", "/a_b", "/a//b", "/-a", "/a/", "/a.b?x"]) {
      expect(() => checkWebhookPath(bad), bad).toThrow(/^invalid webhook path/);
    }
  });
});

describe("webhookFor", () => {
  it("registers the defaulter and validator at their paths on the manager's server", () => {
    const mgr = manager();
    expect(mgr.webhookServer.hasWebhooks).toBe(false);
    webhookFor(mgr, WidgetKind)
      .withDefaulter(noop)
      .withValidator(allowAll, { path: "/validate-custom" })
      .complete();
    expect(mgr.webhookServer.hasWebhooks).toBe(true);
    expect(mgr.webhookServer.isRegistered("/mutate-demo-example-com-v1-appcluster")).toBe(true);
    expect(mgr.webhookServer.isRegistered("/validate-custom")).toBe(true);
    expect(mgr.webhookServer.isRegistered("/validate-demo-example-com-v1-appcluster")).toBe(false);
    // A second builder for the same paths leaves the first registration in place.
    expect(() => webhookFor(mgr, WidgetKind).withDefaulter(noop).complete()).not.toThrow();
  });

  it("refuses an empty builder, a second complete and a bad custom path", () => {
    const mgr = manager();
    expect(() => webhookFor(mgr, WidgetKind).complete()).toThrow(
      "webhookFor(AppCluster.demo.example.com/v1).complete(): nothing to register; call withDefaulter or withValidator first",
    );
    const b = webhookFor(mgr, WidgetKind).withDefaulter(noop);
    b.complete();
    expect(() => b.complete()).toThrow(/called twice/);
    expect(() =>
      webhookFor(mgr, WidgetKind).withValidator(allowAll, { path: "/Validate_Widget" }),
    ).toThrow(/^invalid webhook path "\/Validate_Widget"/);
  });
});

describe("conversionFor", () => {
  const conv = { toHub: (x: unknown) => x, fromHub: (x: unknown) => x };

  it("registers /convert once for any number of kinds", () => {
    const mgr = manager();
    conversionFor(mgr, { group: "demo.example.com", kind: "AppCluster", hub: "v1" })
      .spoke("v2", conv)
      .complete();
    conversionFor(mgr, { group: "demo.example.com", kind: "Other", hub: "v1" })
      .spoke("v2", conv)
      .spoke("v3", conv)
      .complete();
    expect(mgr.webhookServer.isRegistered("/convert")).toBe(true);
    expect(() =>
      conversionFor(mgr, { group: "demo.example.com", kind: "AppCluster", hub: "v2" })
        .spoke("v1", conv)
        .complete(),
    ).toThrow("a conversion for AppCluster.demo.example.com is already registered");
  });

  it("refuses no spokes, the hub as a spoke, a duplicate spoke and a conversion without functions", () => {
    const mgr = manager();
    const kind = { group: "demo.example.com", kind: "AppCluster", hub: "v1" };
    expect(() => conversionFor(mgr, kind).complete()).toThrow(/no spokes/);
    expect(() => conversionFor(mgr, kind).spoke("v1", conv)).toThrow(/v1 is the hub/);
    expect(() => conversionFor(mgr, kind).spoke("v2", conv).spoke("v2", conv)).toThrow(
      /v2 is already a spoke/,
    );
    expect(() => conversionFor(mgr, kind).spoke("v2", { toHub: conv.toHub } as never)).toThrow(
      /toHub and fromHub/,
    );
    expect(() => conversionFor(mgr, { ...kind, hub: "" })).toThrow(/must be set/);
  });
});

describe("webhook flags", () => {
  it("set the webhook server's cert dir and file names", () => {
    const opts = managerOptionsFromArgs(
      [
        "--webhook-cert-path",
        "/certs",
        "--webhook-cert-name=srv.crt",
        "-webhook-cert-key",
        "srv.key",
      ],
      { exitOnError: false },
    );
    expect(opts.webhookServer).toEqual({
      certDir: "/certs",
      certName: "srv.crt",
      keyName: "srv.key",
    });
    // Kubebuilder's manager_webhook_patch.yaml passes --webhook-port=9443.
    expect(
      managerOptionsFromArgs(["--webhook-port=9443"], { exitOnError: false }).webhookServer,
    ).toEqual({
      port: 9443,
    });
    expect(() => managerOptionsFromArgs(["--webhook-port=94x"], { exitOnError: false })).toThrow(
      'invalid value "94x" for -webhook-port: use a port number from 0 to 65535',
    );
    // controller-runtime's webhook.Options.Host; opgen dev binds the local loop to loopback.
    expect(
      managerOptionsFromArgs(["--webhook-host", "127.0.0.1"], { exitOnError: false }).webhookServer,
    ).toEqual({ host: "127.0.0.1" });
    expect(managerOptionsFromArgs([], { exitOnError: false }).webhookServer).toBeUndefined();
    expect(() => managerOptionsFromArgs(["--webhook-cert-path"], { exitOnError: false })).toThrow(
      "flag needs an argument: -webhook-cert-path",
    );
  });
});
