/**
 * Golden tests: TypeScript equivalents of controller-gen's test inputs (test/golden/crd/<case>)
 * must give the CRDs controller-gen printed (shared/fixtures/controller-gen/crd), byte for byte.
 * The generator is given controller-gen's version annotation so the bytes can match.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { generateCrds } from "../../src/generators/crd/index.js";

// biome-ignore lint/suspicious/noExplicitAny: generated CRDs are walked by key in assertions
type Loose = any;

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

  // [case, fixture file, what it pins]
  const cases: [string, string, string][] = [
    ["enums", "testdata.kubebuilder.io_enums.yaml", "a string-literal union as enum"],
    [
      "oneofs",
      "testdata.kubebuilder.io_oneofs.yaml",
      "AtMostOneOf/ExactlyOneOf/AtLeastOneOf as CEL, after XValidation",
    ],
    [
      "immutabletypes",
      "testdata.kubebuilder.io_immutabletypes.yaml",
      "@immutable fields and their parent rules",
    ],
    [
      "externaldocs",
      "testdata.kubebuilder.io_externaldocs.yaml",
      "@externalDocs on fields and types",
    ],
    [
      "versionedresources",
      "testdata.kubebuilder.io_versionedresources.yaml",
      "two versions, @storageversion, @structType",
    ],
    ["plural", "plural.example.com_testquotas.yaml", "@resource path="],
    [
      "foos",
      "bar.example.com_foos.yaml",
      "version from the folder name, @default, @example, multi-line docs",
    ],
    ["nogroup", "testdata._cronjobs.yaml", "an empty group"],
  ];
  it.each(cases)("%s (%s): %s", async (name, file) => {
    const r = await generate(name);
    expect(r.diagnostics).toEqual([]);
    // controller-gen names a group-less CRD "_cronjobs.yaml"; the fixture was saved as testdata._cronjobs.yaml.
    expect(r.files.map((f) => f.path)).toEqual([
      `config/crd/bases/${file.replace(/^testdata\._/, "_")}`,
    ]);
    const expected = fixture(file);
    if (name === "enums") {
      // The upstream enums fixture was written by hand: no "---", no version annotation and no
      // final newline. Everything else is compared byte for byte.
      const ours = r.files[0]!.content.replace(
        "  annotations:\n    controller-gen.kubebuilder.io/version: (devel)\n",
        "",
      );
      expect(ours).toBe(`---\n${expected}\n`);
      return;
    }
    expect(r.files[0]!.content).toBe(expected);
  });

  it("foos with --max-desc-len 50 (bar.example.com_foos_maxdesclen.yaml)", async () => {
    const r = await generate("foos", { maxDescLen: 50 });
    expect(r.files[0]!.content).toBe(fixture("bar.example.com_foos_maxdesclen.yaml"));
  });
});

describe("seed 001: MyApp", () => {
  // The seed printed controller-gen v0.13.0's CRD with its indentation lost, and shortened the
  // multi-line descriptions (apiVersion, kind, the Condition fields) to their first line. So the
  // comparison is line by line with leading spaces removed, which still pins key order, quoting
  // and where long lines fold; where we write a multi-line `|-` description, the seed's (folded)
  // text must equal its first line.
  const seed = readFileSync(
    join(FIXTURES, "../../../seeds/001_b8fe5b676b5c7c8e.txt"),
    "utf8",
  ).split("\n");
  const start = seed.indexOf("apiVersion: apiextensions.k8s.io/v1");
  const expected = seed.slice(start, seed.indexOf("status: {}", start) + 1);
  const isKeyOrItem = (l: string) => /^[A-Za-z0-9-]+:( |$)|^- /.test(l);

  it("generates the CRD controller-gen printed for the seed's types", async () => {
    const r = await generateCrds({
      projectDir: join(CASES, "seed001"),
      versionAnnotation: { key: "controller-gen.kubebuilder.io/version", value: "v0.13.0" },
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.files.map((f) => f.path)).toEqual(["config/crd/bases/example.com_myapps.yaml"]);
    const ours = r.files[0]!.content.split("\n")
      .map((l) => l.trimStart())
      .filter((l) => l && l !== "---");
    let i = 0;
    let j = 0;
    let blocks = 0;
    while (i < expected.length && j < ours.length) {
      if (ours[j] === "description: |-") {
        const first = ours[j + 1]!;
        j += 2;
        while (j < ours.length && !isKeyOrItem(ours[j]!)) j++;
        const parts = [expected[i]!.replace(/^description: /, "")];
        i++;
        while (i < expected.length && !isKeyOrItem(expected[i]!)) parts.push(expected[i++]!);
        expect(parts.join(" ").replace(/^'(.*)'$/, "$1")).toBe(first);
        blocks++;
        continue;
      }
      expect(ours[j], `line ${j + 1} of ours`).toBe(expected[i]);
      i++;
      j++;
    }
    expect([i, j]).toEqual([expected.length, ours.length]);
    expect(blocks).toBe(6);
  });
});

describe("cronjobs: controller-gen's largest fixture (semantic comparison)", () => {
  // test/golden/crd/cronjobs is cronjob_types.go's v1 CronJob in TypeScript: ~100 fields covering
  // nearly every marker, plus embedded core types (batch JobTemplateSpec -> the whole PodSpec,
  // []ObjectReference). Descriptions are our own words, so they are left out; object keys are
  // compared sorted (the YAML writer sorts them). Core types come from @kubernetes/client-node's
  // models, which carry no trace of the Go markers of core/v1, so every remaining difference must
  // be one of the documented kinds below (docs/markers.md, "Where opgen differs").
  const normalize = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(normalize);
    if (s && typeof s === "object") {
      return Object.fromEntries(
        Object.entries(s)
          .filter(([k]) => k !== "description")
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([k, v]) => [k, normalize(v)]),
      );
    }
    return s;
  };
  const differences = (a: unknown, b: unknown, path: string, out: string[]) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (
      a &&
      b &&
      typeof a === "object" &&
      typeof b === "object" &&
      !Array.isArray(a) &&
      !Array.isArray(b)
    ) {
      const ao = a as Record<string, unknown>;
      const bo = b as Record<string, unknown>;
      for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)]))
        differences(ao[k], bo[k], `${path}.${k}`, out);
      return;
    }
    out.push(path);
  };
  /** Topology markers and defaults of core/v1 Go types: not in client-node's models. */
  const CORE_MARKERS =
    /\.(x-kubernetes-list-type|x-kubernetes-list-map-keys|x-kubernetes-map-type|default)$/;
  /** Fields that differ between Kubernetes 1.34 (client-node 1.4's models) and the fixture's k8s.io/api. */
  const VERSION_SKEW = [
    ".spec.jobTemplate.spec.podFailurePolicy.rules[].onPodConditions[].required",
    ".spec.jobTemplate.spec.template.spec.volumes[].projected.sources[].podCertificate.userAnnotations",
    ".spec.jobTemplate.spec.template.spec.schedulingGroup",
  ];

  it("matches controller-gen's CRD (3 versions) except for core/v1 markers and Kubernetes version skew", async () => {
    const r = await generateCrds({
      projectDir: join(CASES, "cronjobs"),
      versionAnnotation: controllerGen,
    });
    expect(r.diagnostics).toEqual([]);
    const ours = r.crds[0]!.object as Record<string, Loose>;
    const cg = parseYaml(fixture("testdata.kubebuilder.io_cronjobs.yaml"));
    // The CRD around the schemas: names, metadata annotations, and each version's flags
    // (v1 storage with a selectable field, v1beta1 unserved, v1beta2 deprecated with a warning).
    expect(ours.metadata).toEqual(cg.metadata);
    expect(ours.spec.names).toEqual(cg.spec.names);
    expect(ours.spec.versions.map((v: Loose) => v.name)).toEqual(["v1", "v1beta1", "v1beta2"]);
    for (const [i, version] of ours.spec.versions.entries()) {
      const { schema: _ours, ...ourFlags } = version;
      const { schema: _theirs, ...cgFlags } = cg.spec.versions[i];
      expect(ourFlags).toEqual(cgFlags);
      if (i > 0) expect(normalize(version.schema)).toEqual(normalize(cg.spec.versions[i].schema));
    }
    const ourSchema = ours.spec.versions[0].schema;
    const cgSchema = cg.spec.versions[0].schema;

    const found: string[] = [];
    differences(
      normalize(ourSchema.openAPIV3Schema),
      normalize(cgSchema.openAPIV3Schema),
      "",
      found,
    );
    const readable = found.map((p) =>
      p
        .replaceAll(".properties.", ".")
        .replace(/^\.properties\./, ".")
        .replaceAll(".items.", "[].")
        .replace(/\.items$/, "[]"),
    );
    const outsideCore = readable.filter(
      (p) => !p.startsWith(".spec.jobTemplate.") && !p.startsWith(".status.active[]"),
    );
    // Everything that is not a core type is equal.
    expect(outsideCore).toEqual([]);
    const unexplained = readable.filter(
      (p) => !CORE_MARKERS.test(p) && !VERSION_SKEW.some((v) => p.startsWith(v)),
    );
    expect(unexplained).toEqual([]);
    // The core types themselves are there: the whole PodSpec, with formats, quantities, int-or-string.
    const pod =
      ourSchema.openAPIV3Schema.properties.spec.properties.jobTemplate.properties.spec.properties
        .template.properties.spec;
    expect(Object.keys(pod.properties).length).toBeGreaterThan(35);
    expect(
      pod.properties.containers.items.properties.resources.properties.limits.additionalProperties[
        "x-kubernetes-int-or-string"
      ],
    ).toBe(true);
  });
});
