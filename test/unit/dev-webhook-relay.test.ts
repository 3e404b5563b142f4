/**
 * opgen dev's webhook relay (src/dev/webhook-relay.ts): calls reach the operator's webhook server
 * through it; while that server does not listen (the operator restarting) a call waits for it,
 * within a bound, and one that cannot be relayed is answered with a Status kube-apiserver reports
 * as a failing webhook. Synchronised on the relay's own hold notice, not on sleeps.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, request, type Server } from "node:https";
import { join } from "node:path";
import { mintServingCertificate, prepareWebhookServing, type WebhookServing } from "@opgen/envtest";
import { afterEach, describe, expect, it } from "vitest";
import { holdFor, type RelayOptions, WebhookRelay } from "../../src/dev/webhook-relay.js";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: Partial<RelayOptions> = {}) {
  const serving = await prepareWebhookServing();
  cleanups.push(() => serving.cleanup());
  const holds: string[] = [];
  let held: () => void = () => {};
  const firstHold = new Promise<void>((resolve) => {
    held = resolve;
  });
  const relay = await WebhookRelay.listen("127.0.0.1", {
    holdMs: 10_000,
    onHold: (path) => {
      holds.push(path);
      held();
    },
    ...options,
  });
  cleanups.push(() => relay.close());
  relay.relayTo({
    host: "127.0.0.1",
    port: serving.port,
    certDir: serving.certDir,
    caBundle: serving.caBundle,
  });
  return { serving, relay, holds, firstHold };
}

/** The operator's webhook server stand-in, on the port and certificate envtest picked. */
async function operator(
  serving: WebhookServing,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  cert = {
    cert: readFileSync(join(serving.certDir, "tls.crt")),
    key: readFileSync(join(serving.certDir, "tls.key")),
  },
): Promise<Server> {
  const server = createServer(cert, handler);
  await new Promise<void>((resolve) => server.listen(serving.port, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return server;
}

/** Echoes what it got: method, path and body. */
function echo(req: IncomingMessage, res: ServerResponse): void {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "x-operator": "yes" });
    res.end(JSON.stringify({ method: req.method, path: req.url, body }));
  });
}

function call(relay: WebhookRelay, serving: WebhookServing, path: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: relay.port,
        method: "POST",
        path,
        ca: serving.caBundle,
        agent: false,
        headers: { "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.once("error", reject);
    req.end('{"kind":"AdmissionReview"}');
  });
}

describe("the webhook relay of opgen dev", () => {
  it("relays a call and the operator's answer, over TLS with envtest's certificate", async () => {
    const { serving, relay, holds } = await setup();
    await operator(serving, echo);
    const reply = await call(relay, serving, "/mutate-x?timeout=10s");
    expect(reply.status).toBe(200);
    expect(reply.headers["x-operator"]).toBe("yes");
    expect(JSON.parse(reply.text)).toEqual({
      method: "POST",
      path: "/mutate-x?timeout=10s",
      body: '{"kind":"AdmissionReview"}',
    });
    expect(holds).toEqual([]);
  });

  it("holds a call until the operator's webhook server listens, then relays it", async () => {
    const { serving, relay, holds, firstHold } = await setup();
    const reply = call(relay, serving, "/validate-x?timeout=10s");
    // The call reached the relay and found nothing listening: now the operator comes up.
    await firstHold;
    await operator(serving, echo);
    const answered = await reply;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.text).path).toBe("/validate-x?timeout=10s");
    expect(holds).toEqual(["/validate-x"]);
  });

  it("answers 503 with a Status saying why when the server does not come within the hold", async () => {
    const { serving, relay } = await setup({ holdMs: 300 });
    const reply = await call(relay, serving, "/mutate-x?timeout=10s");
    expect(reply.status).toBe(503);
    const status = JSON.parse(reply.text);
    expect(status).toMatchObject({ kind: "Status", status: "Failure", code: 503 });
    expect(status.message).toBe(
      `opgen dev: the operator's webhook server at 127.0.0.1:${serving.port} did not answer within 0.3 s (dial tcp 127.0.0.1:${serving.port}: connection refused); see the operator's log in the output of opgen dev`,
    );
  });

  it("answers at once while no operator runs, and waits again once one starts", async () => {
    const { serving, relay } = await setup({ holdMs: 600_000 });
    relay.operatorDown("opgen dev: the operator exited with code 1");
    const down = await call(relay, serving, "/mutate-x?timeout=10s");
    expect(down.status).toBe(503);
    expect(JSON.parse(down.text).message).toBe("opgen dev: the operator exited with code 1");
    relay.operatorStarting();
    await operator(serving, echo);
    expect((await call(relay, serving, "/mutate-x?timeout=10s")).status).toBe(200);
  });

  it("sends a call again when the operator resets its connection (a process going away)", async () => {
    const { serving, relay } = await setup();
    let calls = 0;
    await operator(serving, (req, res) => {
      calls++;
      if (calls === 1) req.socket.destroy();
      else echo(req, res);
    });
    const reply = await call(relay, serving, "/convert?timeout=30s");
    expect(reply.status).toBe(200);
    expect(calls).toBe(2);
  });

  it("does not hold a call the operator's server cannot take (a certificate envtest did not mint)", async () => {
    const { serving, relay, holds } = await setup();
    const other = mintServingCertificate("127.0.0.1");
    await operator(serving, echo, {
      cert: Buffer.from(other.certPem),
      key: Buffer.from(other.keyPem),
    });
    const reply = await call(relay, serving, "/mutate-x?timeout=10s");
    expect(reply.status).toBe(502);
    expect(JSON.parse(reply.text).message).toMatch(
      new RegExp(
        `^opgen dev: cannot call the operator's webhook server at 127\\.0\\.0\\.1:${serving.port}: `,
      ),
    );
    expect(holds).toEqual([]);
  });
});

describe("holdFor", () => {
  it("holds up to the bound, ending within the call's own timeout", () => {
    expect(holdFor("/mutate-x", 10_000)).toBe(10_000);
    expect(holdFor("/mutate-x?timeout=30s", 10_000)).toBe(10_000);
    expect(holdFor("/mutate-x?timeout=10s", 10_000)).toBe(9_500);
    expect(holdFor("/mutate-x?timeout=1s", 10_000)).toBe(500);
    expect(holdFor("/mutate-x?timeout=2500ms", 10_000)).toBe(2_000);
    expect(holdFor("/mutate-x?timeout=1m", 10_000)).toBe(10_000);
    expect(holdFor("/mutate-x?timeout=bogus", 10_000)).toBe(10_000);
  });
});
