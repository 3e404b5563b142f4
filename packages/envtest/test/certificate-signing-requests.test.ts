/**
 * CertificateSigningRequests as kube-apiserver's csrStrategy treats them, driven by kubectl: the
 * requester is whoever made the request (impersonated here), never what the body claims; a new
 * request cannot be created approved; an update of the main resource keeps spec and status.
 */
import { createCertificateRequest, generatePrivateKey, subjectOf } from "@opgen/apimachinery/certs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
});

/** A real PKCS#10 request, base64 of its PEM, as `spec.request` carries it. */
function pemRequest(cn: string): string {
  const { pem } = createCertificateRequest({ subject: subjectOf(cn), key: generatePrivateKey() });
  return Buffer.from(pem).toString("base64");
}

const manifest = (name: string) =>
  JSON.stringify({
    apiVersion: "certificates.k8s.io/v1",
    kind: "CertificateSigningRequest",
    metadata: { name },
    spec: {
      request: pemRequest(name),
      signerName: "example.com/signer",
      usages: ["client auth"],
      // What a client cannot claim: kube sets these from the request's identity.
      username: "someone-else",
      uid: "forged",
      groups: ["system:masters"],
      extra: { scopes: ["all"] },
    },
    status: { conditions: [{ type: "Approved", status: "True", reason: "Forged" }] },
  });

describe("CertificateSigningRequests", () => {
  it("take the requester from the request's identity and start without a status", async () => {
    const created = await kubectl(
      env,
      ["create", "-f", "-", "--as=alice", "--as-group=devs"],
      manifest("alice-csr"),
    );
    expect(created.stderr).toBe("");
    const got = await kubectl(env, ["get", "csr", "alice-csr", "-o", "json"]);
    const csr = JSON.parse(got.stdout);
    expect(csr.spec.username).toBe("alice");
    expect(csr.spec.groups).toEqual(["devs", "system:authenticated"]);
    expect(csr.spec.uid).toBeUndefined();
    expect(csr.spec.extra).toBeUndefined();
    expect(csr.status).toEqual({});
    const table = await kubectl(env, ["get", "csr", "alice-csr"]);
    expect(table.stdout.split("\n")[1]).toMatch(
      /^alice-csr\s+\d+s\s+example\.com\/signer\s+alice\s+<none>\s+Pending$/,
    );
  });

  it("keep spec and status on an update of the main resource, which changes metadata only", async () => {
    await kubectl(env, ["create", "-f", "-"], manifest("kept-csr"));
    const before = JSON.parse(
      (await kubectl(env, ["get", "csr", "kept-csr", "-o", "json"])).stdout,
    );
    const changed = {
      ...before,
      metadata: { ...before.metadata, labels: { team: "a" } },
      spec: { ...before.spec, signerName: "example.com/other", usages: ["server auth"] },
      status: { conditions: [{ type: "Approved", status: "True", reason: "Sneaky" }] },
    };
    const replaced = await kubectl(env, ["replace", "-f", "-"], JSON.stringify(changed));
    expect(replaced.stderr).toBe("");
    const after = JSON.parse((await kubectl(env, ["get", "csr", "kept-csr", "-o", "json"])).stdout);
    expect(after.metadata.labels).toEqual({ team: "a" });
    expect(after.spec).toEqual(before.spec);
    expect(after.status).toEqual({});
  });
});
