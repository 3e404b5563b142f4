// A hostile client cannot make envtest accept what kube-apiserver refuses, nor stall it: CRD
// patterns and CEL rules compile as in kube (refused at CRD creation with kube's messages), run
// in linear time and under a cost limit, and fail closed; non-reading watchers cannot grow
// memory without bound. (Oversized and deeply nested bodies, max-in-flight and malformed query
// parameters are in objects.test.ts, "request limits".)
import https from "node:https";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
});
afterAll(async () => {
  await env?.stop();
});

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function crd(plural: string, spec: object) {
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.hostile.example.com` },
    spec: {
      group: "hostile.example.com",
      scope: "Namespaced",
      names: { plural, kind },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: "object", properties: { spec: { type: "object", ...spec } } },
          },
        },
      ],
    },
  };
}

async function install(plural: string, spec: object): Promise<string> {
  const r = await api(env, "POST", crds, crd(plural, spec));
  expect(r.status, r.text).toBe(201);
  // Served once established; poll discovery rather than sleep.
  const path = `/apis/hostile.example.com/v1/namespaces/default/${plural}`;
  for (let i = 0; i < 200; i++) {
    if ((await api(env, "GET", path)).status === 200) return path;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${plural} never served`);
}

function cr(plural: string, name: string, spec: object) {
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return { apiVersion: "hostile.example.com/v1", kind, metadata: { name }, spec };
}

describe("CRD creation refuses what kube-apiserver refuses", () => {
  it("a pattern Go's regexp does not compile", async () => {
    const r = await api(
      env,
      "POST",
      crds,
      crd("lookaheads", { properties: { name: { type: "string", pattern: "^(?!x)" } } }),
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "lookaheads.hostile.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[name].pattern: Invalid value: "^(?!x)": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?!`'.replace(
        "spec.validation.openAPIV3Schema",
        "spec.versions[0].schema.openAPIV3Schema",
      ),
    );
  });

  it("a rule that does not compile, naming the rule's path", async () => {
    const r = await api(
      env,
      "POST",
      crds,
      crd("badrules", {
        // replicas declared: kube exposes only declared fields, and an undefined one would be a
        // second issue in the message.
        properties: { replicas: { type: "integer" } },
        "x-kubernetes-validations": [{ rule: "self.replicas.frobnicate()", message: "m" }],
      }),
    );
    expect(r.status).toBe(422);
    const cause = r.body.details.causes[0];
    expect(cause.field).toBe(
      "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
    );
    expect(cause.message).toBe(
      `Invalid value: apiextensions.ValidationRule{Rule:"self.replicas.frobnicate()", Message:"m", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:25: undeclared reference to 'frobnicate' (in container '')\n | self.replicas.frobnicate()\n | ........................^`,
    );
  });

  it("a rule naming a field the schema does not have, or comparing mismatched types", async () => {
    const r = await api(
      env,
      "POST",
      crds,
      crd("typos", {
        properties: { replicas: { type: "integer" } },
        "x-kubernetes-validations": [
          { rule: "self.replica > 0" },
          { rule: "self.replicas == true" },
        ],
      }),
    );
    expect(r.status).toBe(422);
    const details = r.body.details.causes.map(
      (c: { message: string }) => c.message.replace(/^.*compilation failed: /, "").split("\n")[0],
    );
    expect(details).toEqual([
      "ERROR: <input>:1:5: undefined field 'replica'",
      "ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, bool)'",
    ]);
  });

  it("a messageExpression that does not compile, a rule that is not a bool, an empty rule", async () => {
    const r = await api(
      env,
      "POST",
      crds,
      crd("badmessages", {
        "x-kubernetes-validations": [
          { rule: "true", messageExpression: "nope + 1" },
          { rule: "'a' + 'b'" },
          { rule: "  " },
        ],
      }),
    );
    expect(r.status).toBe(422);
    const fields = r.body.details.causes.map((c: { field: string; message: string }) => [
      c.field.replace(/^.*x-kubernetes-validations/, ""),
      c.message.replace(/^.*\}: /, "").split("\n")[0],
    ]);
    expect(fields).toEqual(
      expect.arrayContaining([
        [
          "[0].messageExpression",
          "messageExpression compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')",
        ],
        ["[1].rule", "cel expression must evaluate to a bool"],
        ["[2].rule", "Required value: rule is not specified"],
      ]),
    );
  });
});

describe("objects: linear time, metered, fail closed", () => {
  let patterns: string;
  let rules: string;
  beforeAll(async () => {
    patterns = await install("patterns", {
      properties: { name: { type: "string", pattern: "^(a+)+$" } },
    });
    rules = await install("rules", {
      properties: {
        limits: {
          type: "object",
          properties: { max: { type: "integer" }, min: { type: "integer" } },
        },
        // kube refuses the quadratic rule below at CRD creation above 1,194 items (estimated
        // cost over 10,000,000); at 1,000 it installs and still runs past the 1,000,000 per-call
        // runtime limit.
        items: { type: "array", maxItems: 1000, items: { type: "integer" } },
        name: { type: "string" },
      },
      "x-kubernetes-validations": [
        { rule: "!has(self.limits) || self.limits.max > self.limits.min", message: "max over min" },
        { rule: "!has(self.items) || self.items.all(x, self.items.all(y, x != y || x == y))" },
        { rule: "!has(self.name) || self.name.matches('^(a|aa)+$')", message: "only a's" },
      ],
    });
  });

  it("a catastrophic pattern neither stalls the server nor a concurrent request", async () => {
    const hostile = `${"a".repeat(100_000)}!`;
    const started = Date.now();
    const [create, version] = await Promise.all([
      api(env, "POST", patterns, cr("patterns", "p", { name: hostile })),
      api(env, "GET", "/version"),
    ]);
    expect(version.status).toBe(200);
    expect(create.status).toBe(422);
    expect(create.body.details.causes[0].message).toBe(
      `Invalid value: "${hostile}": spec.name in body should match '^(a+)+$'`,
    );
    // Linear-time matching answers both in milliseconds; a backtracking engine takes forever.
    expect(Date.now() - started).toBeLessThan(1000);
    const hostileRule = await api(env, "POST", rules, cr("rules", "r", { name: hostile }));
    expect(hostileRule.status).toBe(422);
    expect(hostileRule.body.details.causes[0].message).toBe('Invalid value: "object": only a\'s');
  });

  it("an evaluation error rejects the object with kube's message", async () => {
    const r = await api(env, "POST", rules, cr("rules", "nokey", { limits: { max: 3 } }));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Rule.hostile.example.com "nokey" is invalid: spec: Invalid value: "object": no such key: min evaluating rule: max over min',
    );
  });

  it("a rule over its cost limit rejects the object and stops further rules", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const r = await api(env, "POST", rules, cr("rules", "costly", { items, name: "b" }));
    expect(r.status).toBe(422);
    expect(r.body.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "spec",
        message:
          "Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: !has(self.items) || self.items.all(x, self.items.all(y, x != y || x == y))",
      },
    ]);
    const fine = await api(
      env,
      "POST",
      rules,
      cr("rules", "fine", { items: [1, 2, 3], name: "aa" }),
    );
    expect(fine.status, fine.text).toBe(201);
  });
});

describe("malformed requests", () => {
  it("a request target the URL parser refuses is a 400, and the server keeps serving", async () => {
    const { hostname, port } = new URL(env.url);
    const status = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false });
      let text = "";
      socket.on("secureConnect", () =>
        socket.write("GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      );
      socket.on("data", (c) => {
        text += c;
      });
      socket.on("end", () => resolve(text.split("\r\n")[0] ?? ""));
      socket.on("error", reject);
    });
    expect(status).toBe("HTTP/1.1 400 Bad Request");
    expect((await api(env, "GET", "/version")).status).toBe(200);
  });
});

describe("watchers that never read", () => {
  it("keep memory bounded while objects are written, and are closed by the server", async () => {
    const ca = Buffer.from(env.kubeconfig.getCurrentCluster()!.caData!, "base64");
    const WATCHERS = 50;
    let closed = 0;
    let onClose = () => {};
    // Every watch is established (its headers arrived) before the first write: a watch that
    // started late would see fewer events, lag less and stay open for a reason of timing.
    const responses = await Promise.all(
      Array.from(
        { length: WATCHERS },
        () =>
          new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
            const req = https.get(
              `${env.url}/api/v1/namespaces/default/configmaps?watch=1`,
              { ca, headers: { Authorization: `Bearer ${env.adminToken}` } },
              (res) => {
                res.pause();
                res.on("error", () => {});
                res.on("close", () => {
                  closed++;
                  onClose();
                });
                resolve(res);
              },
            );
            req.on("error", reject);
          }),
      ),
    );
    const before = process.memoryUsage().rss;
    // Few large objects rather than many small ones: the same bytes reach the watchers with a
    // tenth of the requests. 64 objects of 256 KiB are 16 MiB for each watcher, what
    // MAX_WATCH_BUFFER lets one hold, so every watcher that never reads passes it (or the
    // lagging budget first), however slowly the machine runs: the work is bounded, not the clock.
    const value = "x".repeat(256 * 1024);
    let peak = before;
    for (let i = 0; i < 64; i++) {
      const r = await api(env, "POST", "/api/v1/namespaces/default/configmaps", {
        metadata: { name: `w-${i}` },
        data: { v: value },
      });
      expect(r.status).toBe(201);
      if (i % 4 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    // 64 objects of 256 KiB reach each of 50 watchers: 800 MiB if every watcher kept them all.
    // Lagging watchers share a bounded budget and the most lagging are closed first.
    expect(peak - before).toBeLessThan(400 * 1024 * 1024);
    // The server closed lagging watchers on its own: reading what reached them, each sees its
    // end. (The last few may stay open: within the budget, a lagging watcher is allowed.) Waits
    // for the closes themselves; only the test's own timeout bounds a server that never closes.
    const enough = new Promise<void>((resolve) => {
      onClose = () => closed >= 40 && resolve();
      onClose();
    });
    for (const res of responses) res.resume();
    await enough;
    expect(closed).toBeGreaterThanOrEqual(40);
    for (const res of responses) res.destroy();
  });
});
