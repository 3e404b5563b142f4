// controller-gen's golden CRDs (the repository's test/fixtures/controller-gen/crd) install on
// envtest as on a real cluster: every kind becomes Established, and the group-less one is rejected.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api } from "./helpers.js";

const dir = join(import.meta.dirname, "../../../test/fixtures/controller-gen/crd");
const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
});

describe("controller-gen golden CRDs", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".yaml") && !f.includes("maxdesclen"));
  for (const file of files) {
    it(`installs ${file}`, async () => {
      const crd = parse(readFileSync(join(dir, file), "utf8"));
      const r = await api(env, "POST", crds, crd);
      if (crd.spec.group === "") {
        expect(r.status).toBe(422);
        expect(r.body.details.causes).toContainEqual(
          expect.objectContaining({ field: "spec.group", reason: "FieldValueRequired" }),
        );
        return;
      }
      expect(r.status, r.text).toBe(201);
      await eventually(async () => {
        const got = (await api(env, "GET", `${crds}/${crd.metadata.name}`)).body;
        expect(
          got.status.conditions.find((c: { type: string }) => c.type === "Established")?.status,
        ).toBe("True");
      });
    });
  }

  it("defaults required fields before validating the big CronJob schema", async () => {
    const r = await api(
      env,
      "POST",
      "/apis/testdata.kubebuilder.io/v1/namespaces/default/cronjobs",
      {
        apiVersion: "testdata.kubebuilder.io/v1",
        kind: "CronJob",
        metadata: { name: "c" },
        spec: {},
      },
    );
    expect(r.status).toBe(422);
    const fields = r.body.details.causes.map((c: { field: string }) => c.field);
    // Required without a default: reported.
    expect(fields).toContain("spec.foo");
    expect(fields).toContain("spec.jobTemplate");
    // Required with a default (defaultedString: forty-two): filled in, so not reported.
    expect(fields).not.toContain("spec.defaultedString");
    expect(fields).not.toContain("spec.doubleDefaultedString");
  });
});
