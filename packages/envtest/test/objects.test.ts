// Object semantics of apiserver-spec.md §4 and §12 (3, 4, 7, 8), checked on the wire.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, fixtures } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "crds")] });
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "objects" } });
});
afterAll(async () => {
  await env?.stop();
});

const widgets = "/apis/example.com/v1/namespaces/objects/widgets";
const widget = (name: string, spec: Record<string, unknown> = { mode: "fast" }) => ({
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name },
  spec,
});

describe("create", () => {
  it("rejects a body whose apiVersion does not match the endpoint", async () => {
    const r = await api(env, "POST", widgets, { ...widget("x"), apiVersion: "example.com/v2" });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      "the API version in the data (example.com/v2) does not match the expected API version (example.com/v1)",
    );
  });

  it("rejects a kind mismatch on custom resources as Invalid", async () => {
    const r = await api(env, "POST", widgets, { ...widget("x"), kind: "Gadget" });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Widget.example.com "x" is invalid: kind: Invalid value: "Gadget": must be Widget',
    );
  });

  it("rejects a namespace mismatch and a missing namespace", async () => {
    const mismatch = await api(env, "POST", widgets, {
      ...widget("x"),
      metadata: { name: "x", namespace: "other" },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
    const missing = await api(
      env,
      "POST",
      "/apis/example.com/v1/namespaces/nope/widgets",
      widget("x"),
    );
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('namespaces "nope" not found');
  });

  it("requires a name and rejects client resourceVersions", async () => {
    const noName = await api(env, "POST", widgets, { ...widget("x"), metadata: {} });
    expect(noName.status).toBe(422);
    expect(noName.body.message).toBe(
      'Widget.example.com "" is invalid: metadata.name: Required value: name or generateName is required',
    );
    const withRV = await api(env, "POST", widgets, {
      ...widget("x"),
      metadata: { name: "x", resourceVersion: "5" },
    });
    expect(withRV.status).toBe(500);
    expect(withRV.body.message).toBe(
      "Internal error occurred: resourceVersion should not be set on objects to be created",
    );
  });

  it("answers 409 AlreadyExists with the real message and details", async () => {
    expect((await api(env, "POST", widgets, widget("dup"))).status).toBe(201);
    const r = await api(env, "POST", widgets, widget("dup"));
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'widgets.example.com "dup" already exists',
      reason: "AlreadyExists",
      details: { name: "dup", group: "example.com", kind: "widgets" },
      code: 409,
    });
  });

  it("validates metadata names", async () => {
    const r = await api(env, "POST", widgets, widget("Bad_Name"));
    expect(r.status).toBe(422);
    expect(r.body.details.causes[0]).toEqual({
      reason: "FieldValueInvalid",
      message:
        "Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      field: "metadata.name",
    });
  });
});

describe("update", () => {
  it("requires a resourceVersion for custom resources, with the uint64 rendering", async () => {
    const created = (await api(env, "POST", widgets, widget("norv"))).body;
    delete created.metadata.resourceVersion;
    const r = await api(env, "PUT", `${widgets}/norv`, created);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'widgets.example.com "norv" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
  });

  it("allows unconditional updates of ConfigMaps", async () => {
    await api(env, "POST", "/api/v1/namespaces/objects/configmaps", {
      metadata: { name: "uncond" },
      data: { a: "1" },
    });
    const r = await api(env, "PUT", "/api/v1/namespaces/objects/configmaps/uncond", {
      metadata: { name: "uncond" },
      data: { a: "2" },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ a: "2" });
  });

  it("rejects a name mismatch and an immutable uid change", async () => {
    const created = (await api(env, "POST", widgets, widget("names"))).body;
    const mismatch = await api(env, "PUT", `${widgets}/names`, {
      ...created,
      metadata: { ...created.metadata, name: "other" },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe(
      "the name of the object (other) does not match the name on the URL (names)",
    );
    const uid = await api(env, "PUT", `${widgets}/names`, {
      ...created,
      metadata: { ...created.metadata, uid: "00000000-0000-0000-0000-000000000000" },
    });
    expect(uid.status).toBe(422);
    expect(uid.body.message).toContain(
      'metadata.uid: Invalid value: "00000000-0000-0000-0000-000000000000": field is immutable',
    );
  });

  it("keeps resourceVersion and emits nothing for a no-op update", async () => {
    const created = (await api(env, "POST", widgets, widget("noop"))).body;
    const r = await api(env, "PUT", `${widgets}/noop`, created);
    expect(r.status).toBe(200);
    expect(r.body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it("bumps generation for spec, not for labels or status, and once on deletion with finalizers", async () => {
    let w = (
      await api(env, "POST", widgets, {
        ...widget("gen"),
        metadata: { name: "gen", finalizers: ["example.com/keep"] },
      })
    ).body;
    expect(w.metadata.generation).toBe(1);
    w = (await api(env, "PUT", `${widgets}/gen`, { ...w, spec: { ...w.spec, replicas: 2 } })).body;
    expect(w.metadata.generation).toBe(2);
    w = (
      await api(env, "PUT", `${widgets}/gen`, {
        ...w,
        metadata: { ...w.metadata, labels: { x: "y" } },
      })
    ).body;
    expect(w.metadata.generation).toBe(2);
    // Status through the main endpoint is ignored; through /status it does not bump generation.
    const ignored = (await api(env, "PUT", `${widgets}/gen`, { ...w, status: { replicas: 9 } }))
      .body;
    expect(ignored.status).toBeUndefined();
    w = (await api(env, "PUT", `${widgets}/gen/status`, { ...w, status: { replicas: 2 } })).body;
    expect(w.status).toEqual({ replicas: 2 });
    expect(w.metadata.generation).toBe(2);
    const deleted = await api(env, "DELETE", `${widgets}/gen`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.generation).toBe(3);
    expect(deleted.body.metadata.deletionTimestamp).toBeDefined();
    const again = await api(env, "DELETE", `${widgets}/gen`);
    expect(again.body.metadata.generation).toBe(3);
    // New finalizers are forbidden while deleting; removing the last one deletes the object.
    const add = await api(env, "PUT", `${widgets}/gen`, {
      ...again.body,
      metadata: { ...again.body.metadata, finalizers: ["example.com/keep", "example.com/more"] },
    });
    expect(add.status).toBe(422);
    expect(add.body.message).toContain(
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}',
    );
    const released = await api(env, "PUT", `${widgets}/gen`, {
      ...again.body,
      metadata: { ...again.body.metadata, finalizers: [] },
    });
    expect(released.status).toBe(200);
    expect((await api(env, "GET", `${widgets}/gen`)).status).toBe(404);
  });

  it("status updates take only status from the request", async () => {
    const w = (await api(env, "POST", widgets, widget("st"))).body;
    const r = await api(env, "PUT", `${widgets}/st/status`, {
      ...w,
      metadata: { ...w.metadata, labels: { sneaky: "yes" } },
      spec: { mode: "slow" },
      status: { replicas: 1 },
    });
    expect(r.body.metadata.labels).toBeUndefined();
    expect(r.body.spec.mode).toBe("fast");
    expect(r.body.status).toEqual({ replicas: 1 });
  });
});

describe("patch", () => {
  it("rejects strategic merge patch on custom resources with the real 415", async () => {
    await api(env, "POST", widgets, widget("p1"));
    const r = await api(
      env,
      "PATCH",
      `${widgets}/p1`,
      { spec: { replicas: 2 } },
      {
        contentType: "application/strategic-merge-patch+json",
      },
    );
    expect(r.status).toBe(415);
    expect(r.body.message).toBe(
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    );
  });

  it("applies merge and JSON patches, with failed tests as 422", async () => {
    const merged = await api(
      env,
      "PATCH",
      `${widgets}/p1`,
      { spec: { replicas: 3, limits: null } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    expect(merged.status).toBe(200);
    // limits was removed, then defaulted again ({} with cpu default).
    expect(merged.body.spec).toEqual({ mode: "fast", replicas: 3, limits: { cpu: "100m" } });
    const json = await api(
      env,
      "PATCH",
      `${widgets}/p1`,
      [
        { op: "test", path: "/spec/replicas", value: 3 },
        { op: "replace", path: "/spec/replicas", value: 4 },
      ],
      { contentType: "application/json-patch+json" },
    );
    expect(json.body.spec.replicas).toBe(4);
    const failed = await api(
      env,
      "PATCH",
      `${widgets}/p1`,
      [{ op: "test", path: "/spec/replicas", value: 1 }],
      {
        contentType: "application/json-patch+json",
      },
    );
    expect(failed.status).toBe(422);
    expect(failed.body.message).toBe(
      "the server rejected our request due to an error in our request",
    );
  });

  it("treats a resourceVersion in a patch as a precondition", async () => {
    const r = await api(
      env,
      "PATCH",
      `${widgets}/p1`,
      { metadata: { resourceVersion: "1" }, spec: { replicas: 5 } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    expect(r.status).toBe(409);
    expect(r.body.reason).toBe("Conflict");
  });

  it("merges lists by key with strategic merge patch on built-ins", async () => {
    await api(env, "POST", "/apis/apps/v1/namespaces/objects/deployments", {
      metadata: { name: "web" },
      spec: {
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            containers: [
              { name: "a", image: "nginx:1" },
              { name: "b", image: "busybox" },
            ],
          },
        },
      },
    });
    const r = await api(
      env,
      "PATCH",
      "/apis/apps/v1/namespaces/objects/deployments/web",
      { spec: { template: { spec: { containers: [{ name: "b", image: "busybox:2" }] } } } },
      { contentType: "application/strategic-merge-patch+json" },
    );
    expect(r.status).toBe(200);
    const containers = r.body.spec.template.spec.containers;
    expect(containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`)).toEqual([
      "a=nginx:1",
      "b=busybox:2",
    ]);
    // Server defaults are visible, as with kube-apiserver.
    expect(r.body.spec.replicas).toBe(1);
    expect(r.body.spec.strategy).toEqual({
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" },
    });
    expect(containers[0].imagePullPolicy).toBe("IfNotPresent");
    // Defaulted at create from the untagged image; later image changes keep it.
    expect(containers[1].imagePullPolicy).toBe("Always");
  });

  it("rejects force on non-apply patches and apply without a field manager", async () => {
    const force = await api(
      env,
      "PATCH",
      `${widgets}/p1?force=true`,
      { spec: {} },
      { contentType: "application/merge-patch+json" },
    );
    expect(force.status).toBe(422);
    expect(force.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
    const apply = await api(env, "PATCH", `${widgets}/p1`, "{}", {
      contentType: "application/apply-patch+yaml",
    });
    expect(apply.status).toBe(422);
    expect(apply.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });
});

describe("server-side apply", () => {
  const applyBody = (spec: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "ssa" },
      spec,
    });

  it("creates, records managers, conflicts and takes ownership with force", async () => {
    const created = await api(
      env,
      "PATCH",
      `${widgets}/ssa?fieldManager=alice`,
      applyBody({ mode: "fast", replicas: 2 }),
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    expect(created.status).toBe(201);
    const entry = created.body.metadata.managedFields.find(
      (e: { manager: string }) => e.manager === "alice",
    );
    expect(entry).toMatchObject({
      operation: "Apply",
      apiVersion: "example.com/v1",
      fieldsType: "FieldsV1",
    });
    expect(entry.fieldsV1).toEqual({ "f:spec": { "f:mode": {}, "f:replicas": {} } });

    const conflict = await api(
      env,
      "PATCH",
      `${widgets}/ssa?fieldManager=bob`,
      applyBody({ mode: "fast", replicas: 3 }),
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
    );
    expect(conflict.body.details.causes).toEqual([
      { reason: "FieldManagerConflict", message: 'conflict with "alice"', field: ".spec.replicas" },
    ]);

    // Same value: shared ownership, no conflict.
    const shared = await api(
      env,
      "PATCH",
      `${widgets}/ssa?fieldManager=bob`,
      applyBody({ mode: "fast" }),
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    expect(shared.status).toBe(200);

    const forced = await api(
      env,
      "PATCH",
      `${widgets}/ssa?fieldManager=bob&force=true`,
      applyBody({ mode: "fast", replicas: 3 }),
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    expect(forced.status).toBe(200);
    expect(forced.body.spec.replicas).toBe(3);
    const alice = forced.body.metadata.managedFields.find(
      (e: { manager: string }) => e.manager === "alice",
    );
    expect(alice.fieldsV1).toEqual({ "f:spec": { "f:mode": {} } });
  });

  it("removes fields a manager stops applying", async () => {
    await api(
      env,
      "PATCH",
      `${widgets}/ssa2?fieldManager=carol`,
      applyBody({ mode: "fast", name: "abc" }).replace('"ssa"', '"ssa2"'),
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    const r = await api(
      env,
      "PATCH",
      `${widgets}/ssa2?fieldManager=carol`,
      applyBody({ mode: "fast" }).replace('"ssa"', '"ssa2"'),
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    expect(r.body.spec.name).toBeUndefined();
  });
});

describe("server-side apply on built-ins", () => {
  it("merges Service ports by port and defaulted protocol, keeping each", async () => {
    const svc = (ports: object[]) =>
      JSON.stringify({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "ssa-svc" },
        spec: { selector: { app: "x" }, ports },
      });
    const path = "/api/v1/namespaces/objects/services/ssa-svc";
    const created = await api(
      env,
      "PATCH",
      `${path}?fieldManager=a`,
      svc([
        { name: "http", port: 80 },
        { name: "https", port: 443 },
      ]),
      {
        contentType: "application/apply-patch+yaml",
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.spec.ports.map((p: { port: number }) => p.port)).toEqual([80, 443]);
    const entry = created.body.metadata.managedFields.find(
      (e: { manager: string }) => e.manager === "a",
    );
    // Keyed by the catalog's list-map keys, port and protocol; the applied items carry no
    // protocol, so its default (TCP) completes the key, as structured-merge-diff does. The
    // applier owns the keyed items, not the list itself (SMD's ToFieldSet: a declared field
    // holding a non-empty list is no member; the differential test's oracle shows the same).
    expect(Object.keys(entry.fieldsV1["f:spec"]["f:ports"]).sort()).toEqual([
      'k:{"port":443,"protocol":"TCP"}',
      'k:{"port":80,"protocol":"TCP"}',
    ]);
  });
});

describe("dryRun", () => {
  it("runs the pipeline without persisting", async () => {
    const before = (await api(env, "GET", widgets)).body.metadata.resourceVersion;
    const r = await api(env, "POST", `${widgets}?dryRun=All`, widget("dry"));
    expect(r.status).toBe(201);
    expect(r.body.spec.replicas).toBe(1);
    expect((await api(env, "GET", `${widgets}/dry`)).status).toBe(404);
    expect((await api(env, "GET", widgets)).body.metadata.resourceVersion).toBe(before);
    const invalid = await api(
      env,
      "POST",
      `${widgets}?dryRun=All`,
      widget("dry", { mode: "bogus" }),
    );
    expect(invalid.status).toBe(422);
  });
});

describe("scale subresource", () => {
  it("reads and writes replicas through autoscaling/v1 Scale", async () => {
    await api(env, "POST", widgets, widget("sc", { mode: "fast", replicas: 2 }));
    const scale = await api(env, "GET", `${widgets}/sc/scale`);
    expect(scale.body).toMatchObject({
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      spec: { replicas: 2 },
      status: { replicas: 0 },
    });
    const put = await api(env, "PUT", `${widgets}/sc/scale`, {
      ...scale.body,
      spec: { replicas: 4 },
    });
    expect(put.status).toBe(200);
    expect(put.body.spec.replicas).toBe(4);
    const w = (await api(env, "GET", `${widgets}/sc`)).body;
    expect(w.spec.replicas).toBe(4);
    expect(w.metadata.generation).toBe(2);
    const patched = await api(
      env,
      "PATCH",
      `${widgets}/sc/scale`,
      { spec: { replicas: 1 } },
      { contentType: "application/merge-patch+json" },
    );
    expect(patched.body.spec.replicas).toBe(1);
  });
});

describe("list", () => {
  it("filters by label and field selectors with the full grammar", async () => {
    const cms = "/api/v1/namespaces/objects/configmaps";
    for (const [name, labels] of [
      ["l1", { tier: "web", env: "prod" }],
      ["l2", { tier: "db", env: "prod" }],
      ["l3", { tier: "web" }],
    ] as const) {
      await api(env, "POST", cms, { metadata: { name, labels } });
    }
    const names = async (q: string) =>
      (await api(env, "GET", `${cms}?${q}`)).body.items.map(
        (i: { metadata: { name: string } }) => i.metadata.name,
      );
    expect(await names(`labelSelector=${encodeURIComponent("tier in (web,db),env")}`)).toEqual([
      "l1",
      "l2",
    ]);
    expect(await names(`labelSelector=${encodeURIComponent("env!=prod,tier")}`)).toEqual(["l3"]);
    // notin and ! match objects without the key (uncond and the namespace's kube-root-ca.crt have
    // no labels at all).
    expect(await names(`labelSelector=${encodeURIComponent("tier notin (db),!env")}`)).toEqual([
      "kube-root-ca.crt",
      "l3",
      "uncond",
    ]);
    expect(await names(`fieldSelector=${encodeURIComponent("metadata.name=l2")}`)).toEqual(["l2"]);
    const bad = await api(env, "GET", `${cms}?labelSelector=${encodeURIComponent("tier in ()")}`);
    expect(bad.status).toBe(400);
    const badField = await api(env, "GET", `${cms}?fieldSelector=spec.foo%3Dx`);
    expect(badField.status).toBe(400);
    expect(badField.body.message).toBe(
      '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    const crField = await api(env, "GET", `${widgets}?fieldSelector=spec.foo%3Dx`);
    expect(crField.body.message).toBe("field label not supported: spec.foo");
  });

  it("pages with limit and continue", async () => {
    const cms = "/api/v1/namespaces/objects/configmaps";
    const all = (await api(env, "GET", cms)).body.items.length;
    const first = (await api(env, "GET", `${cms}?limit=2`)).body;
    expect(first.items).toHaveLength(2);
    expect(first.metadata.remainingItemCount).toBe(all - 2);
    const rest = (await api(env, "GET", `${cms}?limit=500&continue=${first.metadata.continue}`))
      .body;
    expect(rest.items).toHaveLength(all - 2);
    expect(rest.metadata.continue).toBeUndefined();
  });

  it("validates list options", async () => {
    const r = await api(env, "GET", `${widgets}?resourceVersionMatch=NotOlderThan`);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    const tooLarge = await api(
      env,
      "GET",
      `${widgets}?resourceVersion=999999999&resourceVersionMatch=NotOlderThan`,
    );
    expect(tooLarge.status).toBe(504);
    expect(tooLarge.body.message).toMatch(/^Too large resource version: 999999999, current: \d+$/);
  });
});

describe("namespaces and leases", () => {
  it("forbids deleting immortal namespaces and creating in terminating ones", async () => {
    const r = await api(env, "DELETE", "/api/v1/namespaces/default");
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'namespaces "default" is forbidden: this namespace may not be deleted',
    );
    await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "doomed" } });
    // Keep it terminating: a finalized object inside holds it.
    await api(env, "POST", "/api/v1/namespaces/doomed/configmaps", {
      metadata: { name: "held", finalizers: ["example.com/hold"] },
    });
    const del = await api(env, "DELETE", "/api/v1/namespaces/doomed");
    expect(del.body.status.phase).toBe("Terminating");
    const create = await api(env, "POST", "/api/v1/namespaces/doomed/configmaps", {
      metadata: { name: "new" },
    });
    expect(create.status).toBe(403);
    expect(create.body.message).toBe(
      'configmaps "new" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
    expect(create.body.details.causes).toEqual([
      {
        reason: "NamespaceTerminating",
        message: "namespace doomed is being terminated",
        field: "metadata.namespace",
      },
    ]);
  });

  it("gives a lease race one winner and rejects stale renewals", async () => {
    const leases = "/apis/coordination.k8s.io/v1/namespaces/objects/leases";
    const body = (holder: string) => ({
      metadata: { name: "leader" },
      spec: {
        holderIdentity: holder,
        leaseDurationSeconds: 15,
        acquireTime: new Date().toISOString(),
        renewTime: new Date().toISOString(),
      },
    });
    const [a, b] = await Promise.all([
      api(env, "POST", leases, body("a")),
      api(env, "POST", leases, body("b")),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const winner = a.status === 201 ? a.body : b.body;
    expect(winner.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const renewed = await api(env, "PUT", `${leases}/leader`, {
      ...winner,
      spec: { ...winner.spec, renewTime: new Date().toISOString() },
    });
    expect(renewed.status).toBe(200);
    const stale = await api(env, "PUT", `${leases}/leader`, winner);
    expect(stale.status).toBe(409);
    const invalid = await api(env, "PUT", `${leases}/leader`, {
      ...renewed.body,
      spec: { ...renewed.body.spec, leaseDurationSeconds: 0 },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe(
      'Lease.coordination.k8s.io "leader" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    );
  });
});

describe("events", () => {
  it("stores one event served through core/v1 and events.k8s.io/v1", async () => {
    const now = new Date().toISOString();
    const created = await api(env, "POST", "/apis/events.k8s.io/v1/namespaces/objects/events", {
      metadata: { name: "ev1" },
      eventTime: now,
      type: "Normal",
      reason: "Reconciled",
      note: "all good",
      action: "Reconcile",
      reportingController: "example.com/controller",
      reportingInstance: "controller-1",
      regarding: { kind: "Widget", namespace: "objects", name: "w" },
    });
    expect(created.status).toBe(201);
    expect(created.body.note).toBe("all good");
    const core = await api(env, "GET", "/api/v1/namespaces/objects/events/ev1");
    expect(core.body).toMatchObject({
      apiVersion: "v1",
      kind: "Event",
      message: "all good",
      reportingComponent: "example.com/controller",
      involvedObject: { kind: "Widget", name: "w" },
    });
    const selected = await api(
      env,
      "GET",
      "/api/v1/namespaces/objects/events?fieldSelector=involvedObject.name%3Dw,reason%3DReconciled",
    );
    expect(selected.body.items).toHaveLength(1);
  });
});

describe("built-in validation", () => {
  it("rejects a Deployment whose selector does not match its template", async () => {
    const r = await api(env, "POST", "/apis/apps/v1/namespaces/objects/deployments", {
      metadata: { name: "mismatch" },
      spec: {
        selector: { matchLabels: { app: "a" } },
        template: {
          metadata: { labels: { app: "b" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Deployment.apps "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
    );
  });

  it("requires containers with names and images, and valid ports", async () => {
    const r = await api(env, "POST", "/api/v1/namespaces/objects/pods", {
      metadata: { name: "bad-pod" },
      spec: { containers: [{ name: "Web", ports: [{ containerPort: 70000 }] }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((c: { field: string }) => c.field)).toEqual([
      "spec.containers[0].name",
      "spec.containers[0].image",
      "spec.containers[0].ports[0].containerPort",
    ]);
    expect(r.body.message).toContain(
      "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    );
    const empty = await api(env, "POST", "/api/v1/namespaces/objects/pods", {
      metadata: { name: "empty" },
      spec: {},
    });
    expect(empty.body.message).toBe('Pod "empty" is invalid: spec.containers: Required value');
  });

  it("checks Service ports and types and ConfigMap keys", async () => {
    const svc = await api(env, "POST", "/api/v1/namespaces/objects/services", {
      metadata: { name: "svc" },
      spec: { type: "Magic", ports: [{ port: 80 }, { port: 0, name: "b" }] },
    });
    expect(svc.body.message).toBe(
      'Service "svc" is invalid: [spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort", spec.ports[0].name: Required value, spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive]',
    );
    const cm = await api(env, "POST", "/api/v1/namespaces/objects/configmaps", {
      metadata: { name: "keys" },
      data: { "bad key": "x" },
    });
    expect(cm.status).toBe(422);
    expect(cm.body.details.causes[0].field).toBe("data[bad key]");
  });
});

describe("core/v1 event validation", () => {
  it("checks namespaces of old-style events and the reporting fields of new-style ones", async () => {
    const events = "/api/v1/namespaces/objects/events";
    const mismatch = await api(env, "POST", events, {
      metadata: { name: "e1" },
      involvedObject: { kind: "ConfigMap", name: "x", namespace: "other" },
      reason: "R",
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.message).toBe(
      'Event "e1" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    );
    const incomplete = await api(env, "POST", events, {
      metadata: { name: "e2" },
      involvedObject: { kind: "ConfigMap", name: "x", namespace: "objects" },
      eventTime: new Date().toISOString(),
    });
    expect(incomplete.body.message).toBe(
      'Event "e2" is invalid: [reportingComponent: Required value, reportingInstance: Required value, action: Required value, reason: Required value]',
    );
    expect(incomplete.body.details.kind).toBe("Event");
    const ok = await api(env, "POST", events, {
      metadata: { name: "e3" },
      involvedObject: { kind: "ConfigMap", name: "x", namespace: "objects" },
      eventTime: new Date().toISOString(),
      reportingComponent: "example.com/controller",
      reportingInstance: "pod-1",
      action: "Sync",
      reason: "Synced",
      type: "Normal",
    });
    expect(ok.status).toBe(201);
    expect(ok.body.eventTime).toMatch(/\.\d{6}Z$/);
  });
});

describe("errors", () => {
  it("answers unknown paths and subresources with 404 Status and bad methods with 405", async () => {
    const unknown = await api(env, "GET", "/apis/nope.example.com/v1/things");
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("the server could not find the requested resource");
    const sub = await api(env, "GET", "/api/v1/namespaces/objects/configmaps/uncond/status");
    expect(sub.status).toBe(404);
    const method = await api(env, "POST", `${widgets}/p1`, widget("p1"));
    expect(method.status).toBe(405);
    expect(method.body.message).toBe(
      'POST is not supported on resources of kind "widgets.example.com"',
    );
  });

  it("answers protobuf bodies it cannot read with 415 or 400, as kube-apiserver does", async () => {
    const r = await api(env, "POST", "/api/v1/namespaces", "k8s\u0000", {
      contentType: "application/vnd.kubernetes.protobuf",
    });
    expect(r.status).toBe(415);
    expect(r.body.message).toBe(
      "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    );
    const truncated = await api(env, "POST", "/api/v1/namespaces", "k8s\u0000\u0012\u0009", {
      contentType: "application/vnd.kubernetes.protobuf",
    });
    expect(truncated.status).toBe(400);
    expect(truncated.body.message).toMatch(/^error decoding protobuf: /);
  });
});

describe("request limits", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({});
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("refuses bodies over 3 MiB with 413, as kube-apiserver does", async () => {
    const big = JSON.stringify({
      metadata: { name: "big" },
      data: { x: "y".repeat(3 * 1024 * 1024) },
    });
    const r = await api(env, "POST", "/api/v1/namespaces/default/configmaps", big);
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({
      reason: "RequestEntityTooLarge",
      message: "Request entity too large: limit is 3145728",
    });
    // The server keeps serving.
    expect((await api(env, "GET", "/api/v1/namespaces/default/configmaps")).status).toBe(200);
  });

  it("answers deeply nested JSON with 400, never 500", async () => {
    for (const depth of [20000, 6000]) {
      const deep = `{"metadata":{"name":"deep"},"data":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`;
      const r = await api(env, "POST", "/api/v1/namespaces/default/configmaps", deep);
      expect(r.status, String(depth)).toBe(400);
      expect(r.body.message).toMatch(
        /^Object 'ConfigMap' is invalid: the JSON nests (deeper than 10000 levels \(exceeded max depth\)|too deeply to be processed)$/,
      );
    }
  });
});

describe("overload", () => {
  it("answers requests beyond the max-in-flight limit with 429 and Retry-After", async () => {
    const env = await startTestEnv({ maxMutatingRequestsInFlight: 1 });
    try {
      env.faults.delay(1000);
      const create = (name: string) =>
        api(env, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name } });
      const [a, b] = await Promise.all([create("one"), create("two")]);
      const refused = a.status === 429 ? a : b;
      expect([a.status, b.status].sort()).toEqual([201, 429]);
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.body).toMatchObject({
        reason: "TooManyRequests",
        message: "Too many requests, please try again later.",
      });
    } finally {
      await env.stop();
    }
  });

  it("closes a watch whose client stops reading once its buffer is full", async () => {
    const env = await startTestEnv({});
    try {
      const https = await import("node:https");
      const ca = Buffer.from(env.kubeconfig.getCurrentCluster()!.caData!, "base64");
      let received = 0;
      const closed = new Promise<void>((resolve) => {
        const req = https.get(
          `${env.url}/api/v1/namespaces/default/configmaps?watch=1`,
          { ca, headers: { Authorization: `Bearer ${env.adminToken}` } },
          (res) => {
            res.pause();
            res.on("data", (c: Buffer) => {
              for (const byte of c) if (byte === 0x0a) received++;
            });
            res.on("close", () => resolve());
            res.on("error", () => resolve());
            // Resume only after the server has had to buffer far more than its bound.
            res.once("pause-over", () => res.resume());
            (globalThis as { resumeWatch?: () => void }).resumeWatch = () => res.emit("pause-over");
          },
        );
        req.on("error", () => resolve());
      });
      const value = "x".repeat(1024 * 1024);
      for (let i = 0; i < 30; i++)
        await api(env, "POST", "/api/v1/namespaces/default/configmaps", {
          metadata: { name: `big-${i}` },
          data: { v: value },
        });
      (globalThis as { resumeWatch?: () => void }).resumeWatch?.();
      await closed;
      expect(received).toBeLessThan(30);
    } finally {
      await env.stop();
    }
  });
});

describe("malformed query parameters", () => {
  it("answers non-integer limit and timeoutSeconds with 400 on list and watch", async () => {
    const env = await startTestEnv({});
    try {
      for (const q of [
        "limit=abc",
        "timeoutSeconds=1.5",
        "watch=1&timeoutSeconds=abc",
        "watch=1&limit=x",
      ]) {
        const r = await api(env, "GET", `/api/v1/namespaces/default/configmaps?${q}`);
        expect(r.status, q).toBe(400);
        expect(r.body.message, q).toMatch(/^strconv\.ParseInt: parsing "[^"]+": invalid syntax$/);
      }
    } finally {
      await env.stop();
    }
  });

  it("answers a malformed resourceVersion or continue with 400 on get, list and watch alike", async () => {
    const env = await startTestEnv({});
    try {
      const cms = "/api/v1/namespaces/default/configmaps";
      for (const path of [
        `${cms}/missing?resourceVersion=abc`,
        `${cms}?resourceVersion=abc`,
        `${cms}?watch=1&resourceVersion=-1`,
      ]) {
        const r = await api(env, "GET", path);
        expect(r.status, path).toBe(400);
        expect(r.body.message, path).toMatch(/^invalid resource version: (abc|-1)$/);
      }
      const ahead = await api(env, "GET", `${cms}/missing?resourceVersion=99999999`);
      expect(ahead.status).toBe(504);
      expect(ahead.body.message).toMatch(/^Too large resource version: 99999999, current: \d+$/);
      const cont = await api(env, "GET", `${cms}?limit=1&continue=garbage`);
      expect(cont.status).toBe(400);
      expect(cont.body.message).toBe("continue key is not valid: illegal base64 data");
      // resourceVersion 0 (any version) and a current one read normally.
      expect((await api(env, "GET", `${cms}/missing?resourceVersion=0`)).status).toBe(404);
    } finally {
      await env.stop();
    }
  });
});
