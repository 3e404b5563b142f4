/** Shared helpers for envtest's own tests: running the real kubectl against a test server. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll } from "vitest";
import type { TestEnv } from "../src/index.js";

export const fixtures = join(import.meta.dirname, "fixtures");

/** Runs kubectl with the env's kubeconfig and a private discovery cache; never throws. */
export async function kubectl(env: TestEnv, args: string[], input?: string) {
  let cache = cacheDirs.get(env);
  if (!cache) {
    cache = mkdtempSync(join(tmpdir(), "kubectl-cache-"));
    createdCaches.add(cache);
  }
  cacheDirs.set(env, cache);
  const r = await execa(
    "kubectl",
    ["--kubeconfig", env.kubeconfigPath, "--cache-dir", cache, ...args],
    {
      reject: false,
      ...(input !== undefined ? { input } : {}),
      timeout: 30_000,
      env: { KUBECTL_VERSION_CHECK: "false" },
    },
  );
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const cacheDirs = new WeakMap<TestEnv, string>();
// kubectl discovery caches of the test file, removed after it.
const createdCaches = new Set<string>();
// Registered on the importing test file: vitest ends its workers without an "exit" event.
afterAll(() => {
  for (const dir of createdCaches) rmSync(dir, { recursive: true, force: true });
  createdCaches.clear();
});

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as received (protobuf answers are binary). */
  bytes: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON bodies
  body: any;
}

/** One raw HTTPS request with the admin token (or `token`), for exact status/body checks. */
export async function api(
  env: TestEnv,
  method: string,
  path: string,
  body?: unknown,
  opts: {
    contentType?: string;
    accept?: string;
    token?: string;
    headers?: Record<string, string | string[]>;
  } = {},
): Promise<RawResponse> {
  const https = await import("node:https");
  const cluster = env.kubeconfig.getCurrentCluster()!;
  const ca = Buffer.from(cluster.caData!, "base64");
  const payload =
    body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${env.url}${path}`,
      {
        method,
        ca,
        headers: {
          Authorization: `Bearer ${opts.token ?? env.adminToken}`,
          Accept: opts.accept ?? "application/json",
          "User-Agent": "envtest-tests/1.0",
          ...opts.headers,
          ...(payload !== undefined
            ? {
                "Content-Type": opts.contentType ?? "application/json",
                "Content-Length": Buffer.byteLength(payload),
              }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          chunks.push(c);
        });
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString("utf8");
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, body: parsed });
        });
      },
    );
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A watch stream collecting newline-delimited events until closed. */
export async function watchStream(env: TestEnv, path: string, accept = "application/json") {
  const https = await import("node:https");
  const cluster = env.kubeconfig.getCurrentCluster()!;
  const ca = Buffer.from(cluster.caData!, "base64");
  // biome-ignore lint/suspicious/noExplicitAny: watch events are arbitrary JSON
  const events: any[] = [];
  let ended = false;
  const req = https.request(`${env.url}${path}`, {
    method: "GET",
    ca,
    headers: { Authorization: `Bearer ${env.adminToken}`, Accept: accept },
  });
  const status = await new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      let buf = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        buf += c;
        let i = buf.indexOf("\n");
        while (i >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) events.push(JSON.parse(line));
          i = buf.indexOf("\n");
        }
      });
      res.on("end", () => {
        ended = true;
      });
      res.on("close", () => {
        ended = true;
      });
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
  return {
    status,
    events,
    get ended() {
      return ended;
    },
    close: () => req.destroy(),
  };
}
