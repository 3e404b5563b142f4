import http from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restListerWatcher } from "../../src/cache/listwatch.js";
import { parseBindAddress } from "../../src/healthz/server.js";
import {
  ApiError,
  isConflict,
  isGone,
  isNotFound,
  kinds,
  setupSignalHandler,
} from "../../src/index.js";
import { RestClient, type WatchEvent } from "../../src/internal/rest/http.js";

let server: http.Server;
let rest: RestClient;
let throttled = 0;
const seen: Array<{
  method?: string;
  url?: string;
  auth?: string;
  type?: string;
  accept?: string;
  body: string;
}> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers["content-type"],
        accept: req.headers.accept,
        body,
      });
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/ok") return res.end(JSON.stringify({ kind: "Thing", n: 1 }));
      if (url.pathname === "/conflict") {
        res.writeHead(409, { "Content-Type": "application/json" });
        return res.end(
          JSON.stringify({
            kind: "Status",
            reason: "Conflict",
            message: "the object has been modified",
            code: 409,
          }),
        );
      }
      if (url.pathname === "/throttled") {
        throttled++;
        if (throttled <= 2) {
          res.writeHead(429, { "Retry-After": "0" });
          return res.end(JSON.stringify({ kind: "Status", reason: "TooManyRequests", code: 429 }));
        }
        return res.end(JSON.stringify({ ok: true }));
      }
      if (url.pathname === "/flaky") {
        res.writeHead(503, { "Retry-After": "0" });
        return res.end("unavailable");
      }
      if (url.pathname === "/html") {
        res.writeHead(502);
        return res.end("<html>bad gateway</html>");
      }
      if (url.pathname === "/gone" && url.searchParams.get("watch")) {
        res.writeHead(410);
        return res.end(
          JSON.stringify({ kind: "Status", reason: "Expired", message: "too old", code: 410 }),
        );
      }
      if (url.pathname === "/watch") {
        res.writeHead(200);
        // Events split across chunks at awkward places, with a blank line.
        const a = JSON.stringify({ type: "ADDED", object: { metadata: { name: "a" } } });
        const b = JSON.stringify({
          type: "BOOKMARK",
          object: { metadata: { resourceVersion: "7" } },
        });
        res.write(a.slice(0, 10));
        setTimeout(() => {
          res.write(`${a.slice(10)}\n\n${b.slice(0, 5)}`);
          setTimeout(() => res.end(`${b.slice(5)}\n`), 5);
        }, 5);
        return;
      }
      if (url.pathname === "/badwatch") {
        res.writeHead(200);
        return res.end("not json\n");
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: "c",
        server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        skipTLSVerify: true,
      },
    ],
    users: [{ name: "u", token: "secret-token" }],
    contexts: [{ name: "ctx", cluster: "c", user: "u" }],
    currentContext: "ctx",
  });
  rest = new RestClient(kc);
});

afterAll(async () => {
  rest.close();
  await new Promise((r) => server.close(r));
});

describe("RestClient", () => {
  it("sends credentials, query and JSON bodies and decodes answers", async () => {
    const got = await rest.request<{ n: number }>({
      method: "POST",
      path: "/ok",
      query: { a: "b c", skip: undefined },
      body: { x: 1 },
    });
    expect(got.n).toBe(1);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({
      method: "POST",
      url: "/ok?a=b+c",
      auth: "Bearer secret-token",
      type: "application/json",
      body: '{"x":1}',
    });
  });

  it("maps Status bodies and bare codes to ApiErrors", async () => {
    const conflict = (await rest
      .request({ method: "PUT", path: "/conflict", body: {} })
      .catch((e: unknown) => e)) as ApiError;
    expect(conflict).toBeInstanceOf(ApiError);
    expect(isConflict(conflict)).toBe(true);
    expect(conflict.message).toBe("the object has been modified");
    const html = await rest.request({ method: "GET", path: "/html" }).catch((e) => e);
    expect(html).toMatchObject({ code: 502, reason: "InternalError" });
    const missing = await rest.request({ method: "GET", path: "/nothing" }).catch((e) => e);
    expect(isNotFound(missing)).toBe(true);
  });

  it("streams watch events across chunk boundaries", async () => {
    const events: WatchEvent[] = [];
    await rest.watch("/watch", { timeoutSeconds: 5 }, (e) => events.push(e));
    expect(events.map((e) => e.type)).toEqual(["ADDED", "BOOKMARK"]);
    expect(seen.at(-1)?.url).toBe("/watch?timeoutSeconds=5&watch=1");
  });

  it("rejects a watch answered with 410 as Gone, and an undecodable stream", async () => {
    const gone = await rest.watch("/gone", {}, () => {}).catch((e) => e);
    expect(isGone(gone)).toBe(true);
    await expect(rest.watch("/badwatch", {}, () => {})).rejects.toThrow(/undecodable watch event/);
  });
});

describe("metadata-only list/watch", () => {
  it("asks for PartialObjectMetadataList and PartialObjectMetadata", async () => {
    const lw = restListerWatcher(rest, kinds.Secret, { namespace: "ns", metadataOnly: true });
    const ac = new AbortController();
    await lw.list({ limit: 5 }, ac.signal).catch(() => {});
    expect(seen.at(-1)).toMatchObject({
      url: "/api/v1/namespaces/ns/secrets?limit=5",
      accept: "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
    });
    await lw
      .watch({ resourceVersion: "1", timeoutSeconds: 1 }, () => {}, ac.signal)
      .catch(() => {});
    expect(seen.at(-1)?.accept).toBe(
      "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json",
    );
    await restListerWatcher(rest, kinds.Secret, {})
      .list({ limit: 5 }, ac.signal)
      .catch(() => {});
    expect(seen.at(-1)?.accept).toBe("application/json");
  });
});

describe("RestClient retries", () => {
  it("retries 429 with Retry-After for any verb, 5xx only for GET", async () => {
    const before = seen.length;
    expect(
      await rest.request<{ ok: boolean }>({ method: "POST", path: "/throttled", body: {} }),
    ).toEqual({ ok: true });
    expect(seen.length - before).toBe(3);
    const get = seen.length;
    await expect(rest.request({ method: "GET", path: "/flaky" })).rejects.toMatchObject({
      code: 503,
    });
    expect(seen.length - get).toBe(11); // first try + 10 retries
    const post = seen.length;
    await expect(rest.request({ method: "POST", path: "/flaky", body: {} })).rejects.toMatchObject({
      code: 503,
    });
    expect(seen.length - post).toBe(1);
  });
});

describe("bind addresses", () => {
  it("parses Go-style addresses", () => {
    expect(parseBindAddress(":8080")).toEqual({ host: undefined, port: 8080 });
    expect(parseBindAddress("127.0.0.1:0")).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseBindAddress("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
    expect(parseBindAddress("0")).toBeUndefined();
    expect(parseBindAddress("")).toBeUndefined();
    expect(() => parseBindAddress(":http")).toThrow(/invalid bind address/);
  });
});

describe("setupSignalHandler", () => {
  it("aborts on the first SIGTERM and returns the same signal when called again", async () => {
    const signal = setupSignalHandler();
    expect(setupSignalHandler()).toBe(signal);
    expect(signal.aborted).toBe(false);
    const aborted = new Promise((r) => signal.addEventListener("abort", r));
    process.kill(process.pid, "SIGTERM");
    await aborted;
    expect(String(signal.reason)).toMatch(/SIGTERM/);
  });
});
