/**
 * Golden tests: TypeScript equivalents of controller-gen's test inputs (test/golden/crd/<case>)
 * must give the CRDs controller-gen printed (shared/fixtures/controller-gen/crd), byte for byte.
 * The generator is given controller-gen's version annotation so the bytes can match.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateCrds } from "../../src/generators/crd/index.js";

const CASES = join(import.meta.dirname, "crd");
const FIXTURES = join(import.meta.dirname, "../../../shared/fixtures/controller-gen/crd");
const controllerGen = { key: "controller-gen.kubebuilder.io/version", value: "(devel)" };

async function generate(name: string, extra: { maxDescLen?: number } = {}) {
  const result = await generateCrds({
    projectDir: join(CASES, name),
    versionAnnotation: controllerGen,
    ...extra,
  });
  return result;
}

function fixture(file: string): string {
  return readFileSync(join(FIXTURES, file), "utf8");
}

describe("CRD golden tests against controller-gen", () => {
  it("jobs: validations on fields and nested types", async () => {
    const r = await generate("jobs");
    expect(r.diagnostics).toEqual([]);
    expect(r.files.map((f) => f.path)).toEqual([
      "config/crd/bases/testdata.kubebuilder.io_jobs.yaml",
    ]);
    expect(r.files[0]!.content).toBe(fixture("testdata.kubebuilder.io_jobs.yaml"));
  });
});
