/**
 * PersistentVolumeClaim updates as kube-apiserver 1.32 validates them: only a bound claim may
 * resize, a shrink must stay above status.capacity, the rest of the spec is fixed at creation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
});
afterAll(async () => {
  await env?.stop();
});

const SPEC_FORBIDDEN =
  "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

async function claim(name: string, spec: object = {}, annotations?: Record<string, string>) {
  const r = await api(env, "POST", "/api/v1/namespaces/default/persistentvolumeclaims", {
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
  });
  expect(r.status).toBe(201);
  return r.body;
}

const patch = (name: string, body: object, subresource?: string) =>
  kubectl(env, [
    "patch",
    "pvc",
    name,
    "--type=merge",
    ...(subresource ? [`--subresource=${subresource}`] : []),
    "-p",
    JSON.stringify(body),
  ]);

const bind = (name: string, capacity: string) =>
  patch(name, { status: { phase: "Bound", capacity: { storage: capacity } } }, "status");

const storage = (size: string) => ({ spec: { resources: { requests: { storage: size } } } });

describe("PersistentVolumeClaim updates", () => {
  it("refuses resizing a claim that is not bound", async () => {
    await claim("pending");
    const r = await patch("pending", storage("2Gi"));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `The PersistentVolumeClaim "pending" is invalid: ${SPEC_FORBIDDEN}`,
    );
    // The same size written another way is no change (quantities compare by value).
    expect((await patch("pending", storage("1073741824"))).code).toBe(0);
  });

  it("lets a bound claim grow, and shrink only while above status.capacity", async () => {
    await claim("bound");
    expect((await bind("bound", "1Gi")).code).toBe(0);
    expect((await patch("bound", storage("3Gi"))).code).toBe(0);
    // Recovering from a failed expansion: back down, but not to what was provisioned.
    expect((await patch("bound", storage("2Gi"))).code).toBe(0);
    const r = await patch("bound", storage("1Gi"));
    expect(r.stderr.trim()).toBe(
      'The PersistentVolumeClaim "bound" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    );
    const below = await patch("bound", storage("512Mi"));
    expect(below.stderr.trim()).toBe(
      'The PersistentVolumeClaim "bound" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    );
    // A bound claim still may not change anything else.
    const modes = await patch("bound", { spec: { accessModes: ["ReadWriteMany"] } });
    expect(modes.stderr.trim()).toBe(
      `The PersistentVolumeClaim "bound" is invalid: ${SPEC_FORBIDDEN}`,
    );
    const other = await patch("bound", { spec: { resources: { requests: { cpu: "1" } } } });
    expect(other.stderr.trim()).toBe(
      `The PersistentVolumeClaim "bound" is invalid: ${SPEC_FORBIDDEN}`,
    );
  });

  it("lets the binder set volumeName once", async () => {
    await claim("named");
    expect((await patch("named", { spec: { volumeName: "pv-1" } })).code).toBe(0);
    const r = await patch("named", { spec: { volumeName: "pv-2" } });
    expect(r.stderr.trim()).toBe(`The PersistentVolumeClaim "named" is invalid: ${SPEC_FORBIDDEN}`);
  });

  it("lets a storage class be set where none was, then keeps it", async () => {
    await claim("classless");
    expect((await patch("classless", { spec: { storageClassName: "fast" } })).code).toBe(0);
    const r = await patch("classless", { spec: { storageClassName: "slow" } });
    expect(r.stderr.trim()).toBe(
      `The PersistentVolumeClaim "classless" is invalid: ${SPEC_FORBIDDEN}`,
    );
  });

  it("moves the beta storage-class annotation into the spec, and keeps the annotation", async () => {
    const key = "volume.beta.kubernetes.io/storage-class";
    await claim("annotated", {}, { [key]: "fast" });
    const other = await patch("annotated", { spec: { storageClassName: "slow" } });
    expect(other.stderr.trim()).toBe(
      `The PersistentVolumeClaim "annotated" is invalid: ${SPEC_FORBIDDEN}`,
    );
    expect((await patch("annotated", { spec: { storageClassName: "fast" } })).code).toBe(0);
    const r = await patch("annotated", { metadata: { annotations: { [key]: "slow" } } });
    expect(r.stderr.trim()).toBe(
      `The PersistentVolumeClaim "annotated" is invalid: metadata.annotations.${key}: Invalid value: "slow": field is immutable`,
    );
  });

  it("refuses a new volumeMode twice over, as kube does", async () => {
    await claim("mode");
    const r = await patch("mode", { spec: { volumeMode: "Block" } });
    // kubectl lists the causes one a line.
    expect(r.stderr.trim()).toBe(
      `The PersistentVolumeClaim "mode" is invalid: \n* ${SPEC_FORBIDDEN}\n* volumeMode: Invalid value: "Block": field is immutable`,
    );
    const raw = await api(
      env,
      "PATCH",
      "/api/v1/namespaces/default/persistentvolumeclaims/mode",
      {
        spec: { volumeMode: "Block" },
      },
      { contentType: "application/merge-patch+json" },
    );
    expect(raw.body.message).toBe(
      `PersistentVolumeClaim "mode" is invalid: [${SPEC_FORBIDDEN}, volumeMode: Invalid value: "Block": field is immutable]`,
    );
  });

  it("drops volumeAttributesClassName while its feature gate is off", async () => {
    const created = await claim("vac", { volumeAttributesClassName: "gold" });
    expect(created.spec.volumeAttributesClassName).toBeUndefined();
    expect((await patch("vac", { spec: { volumeAttributesClassName: "silver" } })).code).toBe(0);
    const got = await api(env, "GET", "/api/v1/namespaces/default/persistentvolumeclaims/vac");
    expect(got.body.spec.volumeAttributesClassName).toBeUndefined();
  });
});
