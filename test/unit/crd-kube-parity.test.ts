/**
 * One CRD validator: a CRD `opgen manifests` refuses is one envtest (as kube-apiserver) refuses,
 * with the same lines. Each case plants a marker in a small API, runs the generator, and POSTs
 * the CRD it assembled to a real envtest: envtest answers 422, and every cause it gives is a
 * line the generator printed at the marker. A negative printer-column priority, which kube
 * accepts, is accepted by envtest and refused by opgen in its own words.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCrds } from "../../src/generators/crd/index.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";

const root = mkdtempSync(join(tmpdir(), "opgen-crd-parity-"));
let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
  rmSync(root, { recursive: true, force: true });
});

const GV =
  '/** @groupName demo.example.com */\nexport const GroupVersion = { group: "demo.example.com", version: "v1" } as const;\n';
const F = "src/api/v1/thing.types.ts";
let n = 0;

/** A kind Thing with `markers` in its JSDoc (from line 8) and an int32 `replicas` in its spec. */
const types = (markers: string, plural = "things") =>
  `import type { int32, ObjectMeta } from "@opgen/runtime";\n\nexport interface ThingSpec {\n  replicas?: int32;\n}\n\n/**\n * @resource path=${plural}\n${markers
    .split("\n")
    .map((m) => ` * ${m}`)
    .join(
      "\n",
    )}\n */\nexport interface Thing {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec: ThingSpec;\n}\n`;

async function generate(markers: string, plural: string) {
  const dir = join(root, `p${n++}`);
  mkdirSync(join(dir, "src/api/v1"), { recursive: true });
  writeFileSync(join(dir, "src/api/v1/groupversion.ts"), GV);
  writeFileSync(join(dir, F), types(markers, plural));
  const r = await generateCrds({ projectDir: dir });
  return { lines: r.diagnostics.map(formatDiagnostic), crd: r.crds[0]!.object };
}

function create(body: unknown): Promise<{ status: number; body: Record<string, never> }> {
  const ca = Buffer.from(env.kubeconfig.getCurrentCluster()!.caData!, "base64");
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${env.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`,
      {
        method: "POST",
        ca,
        headers: {
          Authorization: `Bearer ${env.adminToken}`,
          Accept: "application/json",
          "Content-Type": "application/json",
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("opgen manifests and envtest refuse the same CRDs with kube-apiserver's lines", () => {
  it.each([
    [
      "a rule comparing an integer with a string",
      `@validation XValidation rule="self.spec.replicas == 'x'"`,
      "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{",
      "compilation failed: ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(int, string)'",
    ],
    [
      "a printer column of an unknown type",
      "@printcolumn name=Size type=bogus jsonPath=.spec.replicas",
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "bogus": must be one of boolean,date,integer,number,string',
      "",
    ],
    [
      "a printer column whose JSONPath has no leading dot",
      "@printcolumn name=Size type=integer jsonPath=spec.replicas",
      'spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
      "",
    ],
    [
      "a printer column of an unknown format",
      "@printcolumn name=Size type=integer jsonPath=.spec.replicas format=integer",
      'spec.versions[0].additionalPrinterColumns[0].format: Invalid value: "integer": must be one of byte,date,date-time,double,float,int32,int64,password',
      "",
    ],
  ])("%s", async (_what, marker, kube, detail) => {
    const plural = `things${n}`;
    const { lines, crd } = await generate(marker, plural);
    const name = `${plural}.demo.example.com`;
    const r = await create(crd);
    expect(r.status).toBe(422);
    const causes = (r.body.details as { causes: { field: string; message: string }[] }).causes;
    expect(causes.length).toBeGreaterThan(0);
    // One line per cause, at the marker (line 9), in kube's words.
    expect(lines).toHaveLength(causes.length);
    for (const c of causes) {
      const line = `${c.field}: ${c.message}`.split("\n")[0];
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^${F}:9:4: @\\S+( \\S+)?: kube-apiserver would refuse CustomResourceDefinition ${name.replace(/\./g, "\\.")}: `,
          ),
        ),
      );
      expect(lines.some((l) => l.endsWith(`: ${line}`))).toBe(true);
    }
    expect(lines.join("\n")).toContain(kube);
    expect(lines.join("\n")).toContain(detail);
  });

  it("a negative priority: kube (and envtest) store it, opgen refuses it in its own words", async () => {
    const plural = `things${n}`;
    const { lines, crd } = await generate(
      "@printcolumn name=Size type=integer jsonPath=.spec.replicas priority=-1",
      plural,
    );
    expect(lines).toEqual([
      `${F}:9:4: @printcolumn "Size": priority -1 must not be negative (0 is the standard view, higher only with -o wide)`,
    ]);
    expect((await create(crd)).status).toBe(201);
  });

  it("a CRD the generator accepts is one envtest accepts", async () => {
    const plural = `things${n}`;
    const { lines, crd } = await generate(
      '@printcolumn name=Size type=integer jsonPath=.spec.replicas format=int32\n@validation XValidation rule="!has(self.spec.replicas) || self.spec.replicas >= 0"',
      plural,
    );
    expect(lines).toEqual([]);
    expect((await create(crd)).status).toBe(201);
  });
});
