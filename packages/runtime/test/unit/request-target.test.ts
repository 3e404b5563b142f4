/**
 * A request target Node's HTTP parser accepts but WHATWG URL rejects (`GET http://[ HTTP/1.1`)
 * must get a 400 from every server the manager runs (probes, metrics, webhooks), not an uncaught
 * exception that ends the process; the server keeps answering afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { serve } from "../../src/healthz/server.js";
import { nullLogger } from "../../src/log/logger.js";
import { startMetricsServer } from "../../src/metrics/server.js";
import { selfSignedCertificate } from "../../src/tls/self-signed.js";
import { WebhookServer } from "../../src/webhook/server.js";

/** Sends raw request bytes and returns the status line. */
function raw(connect: () => net.Socket, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect();
    let data = "";
    socket.on("data", (d) => {
      data += d;
      if (data.includes("\r\n")) {
        resolve(data.split("\r\n")[0] ?? "");
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.write(request);
  });
}

const bad = "GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n";

describe("unparsable request targets", () => {
  it("get 400 from the probe server", async () => {
    const s = await serve(
      { host: "127.0.0.1", port: 0 },
      { "/healthz": async (_q, r) => void r.end("ok") },
    );
    try {
      const plain = () => net.connect(s.port, "127.0.0.1");
      expect(await raw(plain, bad)).toBe("HTTP/1.1 400 Bad Request");
      expect(await raw(plain, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")).toBe("HTTP/1.1 200 OK");
    } finally {
      await s.close();
    }
  });

  it("get 400 from the metrics server", async () => {
    const s = await startMetricsServer({
      bind: { host: "127.0.0.1", port: 0 },
      registry: new Registry(),
      log: nullLogger,
      secure: false,
    });
    try {
      const plain = () => net.connect(s.port, "127.0.0.1");
      expect(await raw(plain, bad)).toBe("HTTP/1.1 400 Bad Request");
      expect(await raw(plain, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")).toBe("HTTP/1.1 200 OK");
    } finally {
      await s.close();
    }
  });

  it("get 400 from the webhook server", async () => {
    const dir = mkdtempSync(join(tmpdir(), "opgen-target-"));
    const pair = selfSignedCertificate();
    writeFileSync(join(dir, "tls.crt"), pair.cert);
    writeFileSync(join(dir, "tls.key"), pair.key);
    const server = new WebhookServer(
      { host: "127.0.0.1", port: 0, certDir: dir },
      { log: nullLogger },
    );
    server.register("/ok", async (_q, r) => void r.end("ok"));
    await server.start();
    try {
      const secure = () =>
        tls.connect({ host: "127.0.0.1", port: server.port as number, rejectUnauthorized: false });
      expect(await raw(secure, bad)).toBe("HTTP/1.1 400 Bad Request");
      expect(await raw(secure, "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")).toBe(
        "HTTP/1.1 200 OK",
      );
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
