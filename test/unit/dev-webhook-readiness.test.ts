/**
 * When opgen dev considers the operator's webhooks served (src/dev/webhook-readiness.ts): every
 * path the configurations call answers (the runtime's server answers a GET on a registered path
 * with 405), a 404 is final and named, a server that never listens is a bounded wait, and an
 * abort ends the wait at once.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { join } from "node:path";
import { prepareWebhookServing, type WebhookServing } from "@opgen/envtest";
import { afterEach, describe, expect, it } from "vitest";
import { webhooksServed } from "../../src/dev/webhook-readiness.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serving(): Promise<WebhookServing> {
  const s = await prepareWebhookServing();
  cleanups.push(() => s.cleanup());
  return s;
}

/** The runtime's webhook server as a GET sees it: 405 on a registered path, 404 elsewhere. */
async function webhookServer(s: WebhookServing, registered: string[]): Promise<Server> {
  const server = createServer(
    {
      cert: readFileSync(join(s.certDir, "tls.crt")),
      key: readFileSync(join(s.certDir, "tls.key")),
    },
    (req, res) => {
      res.writeHead(registered.includes(req.url ?? "") ? 405 : 404);
      res.end();
    },
  );
  await new Promise<void>((resolve) => server.listen(s.port, s.host, resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}

const endpoints = [
  { path: "/mutate-demo-v1-appcluster", what: "mappcluster-v1.kb.io" },
  { path: "/convert", what: "conversion of appclusters.demo.example.com" },
];

describe("webhooksServed", () => {
  it("is ready once every path the configurations call is served", async () => {
    const s = await serving();
    await webhookServer(s, ["/mutate-demo-v1-appcluster", "/convert"]);
    const ready = await webhooksServed(s, endpoints, 60_000, new AbortController().signal);
    expect(ready).toEqual({ kind: "ready" });
  });

  it("fails at once, naming the path and its webhook, when one is not served", async () => {
    const s = await serving();
    await webhookServer(s, ["/mutate-demo-v1-appcluster"]);
    const ready = await webhooksServed(s, endpoints, 600_000, new AbortController().signal);
    expect(ready).toEqual({
      kind: "failed",
      message:
        "the operator's webhook server does not serve /convert (conversion of appclusters.demo.example.com), so calls to it fail: register that webhook in src/main.ts (its setup<Kind>WebhookWithManager(mgr)), or run opgen manifests if it was removed",
    });
  });

  it("fails after its bound, in one line, when nothing listens", async () => {
    const s = await serving();
    const ready = await webhooksServed(s, endpoints, 300, new AbortController().signal);
    expect(ready).toEqual({
      kind: "failed",
      message: `the operator's webhook server did not answer at https://127.0.0.1:${s.port} within 0.3 s (connection refused): see the operator's log above; src/main.ts must call the setup<Kind>WebhookWithManager(mgr) functions`,
    });
  });

  it("ends when aborted, long before its bound", async () => {
    const s = await serving();
    const stop = new AbortController();
    const ready = webhooksServed(s, endpoints, 600_000, stop.signal);
    stop.abort();
    // vitest's test timeout fails this if the wait ran on.
    expect(await ready).toEqual({ kind: "aborted" });
  });
});
