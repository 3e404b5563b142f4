/**
 * Golden tests: TypeScript equivalents of controller-gen's test inputs (test/golden/crd/<case>)
 * must give the CRDs controller-gen printed (test/fixtures/controller-gen/crd), byte for byte.
 * The generator is given controller-gen's version annotation so the bytes can match.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { generateCrds } from "../../src/generators/crd/index.js";
import { CONTROLLER_GEN_FIXTURES, FIXTURES_DIR } from "../helpers/fixtures.js";

// biome-ignore lint/suspicious/noExplicitAny: generated CRDs are walked by key in assertions
type Loose = any;

const CASES = join(import.meta.dirname, "crd");
const FIXTURES = join(CONTROLLER_GEN_FIXTURES, "crd");
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
  const seed = readFileSync(join(FIXTURES_DIR, "seed-001", "example.com_myapps.txt"), "utf8").split(
    "\n",
  );
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
  // []ObjectReference), whose schemas come from the Kubernetes 1.32 catalog. Object keys are
  // compared sorted (the YAML writer sorts them). Descriptions of the CronJob's own fields are our
  // own words and are left out; those of the core types come from the OpenAPI document, which
  // joins each Go comment paragraph onto one line where controller-gen keeps the comment's line
  // breaks, so they are compared with runs of whitespace made one space (docs/markers.md).
  const normalize = (s: unknown, descriptions: boolean): unknown => {
    if (Array.isArray(s)) return s.map((x) => normalize(x, descriptions));
    if (s && typeof s === "object") {
      return Object.fromEntries(
        Object.entries(s)
          .filter(([k]) => descriptions || k !== "description")
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([k, v]) => [
            k,
            k === "description" && typeof v === "string"
              ? v.replace(/\s+/g, " ").trim()
              : normalize(v, descriptions),
          ]),
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
  const readable = (p: string) =>
    p
      .replaceAll(".properties.", ".")
      .replace(/^\.properties\./, ".")
      .replaceAll(".items.", "[].")
      .replace(/\.items$/, "[]");
  /**
   * The fixture was generated against a newer k8s.io/api than 1.32: these fields came later
   * (stopSignal in 1.33; fileKeyRef, restartPolicyRules, podCertificate, hostnameOverride in
   * 1.34; schedulingGroup after). They are in controller-gen's schema and, rightly for 1.32, not
   * in ours.
   */
  const POD = ".spec.jobTemplate.spec.template.spec";
  const NEWER_FIELDS = [
    ...["containers", "ephemeralContainers", "initContainers"].flatMap((c) => [
      `${POD}.${c}[].env[].valueFrom.fileKeyRef`,
      `${POD}.${c}[].lifecycle.stopSignal`,
      `${POD}.${c}[].restartPolicyRules`,
    ]),
    `${POD}.volumes[].projected.sources[].podCertificate`,
    `${POD}.hostnameOverride`,
    `${POD}.schedulingGroup`,
  ];
  /** Later releases made a pod-condition pattern's `status` optional; 1.32 requires it. */
  const ON_POD_CONDITIONS = ".spec.jobTemplate.spec.podFailurePolicy.rules[].onPodConditions[]";
  const NEWER_THAN_1_32 = [...NEWER_FIELDS, `${ON_POD_CONDITIONS}.required`].sort();

  it("matches controller-gen's CRD (3 versions) in structure, values and core-type descriptions, up to fields newer than Kubernetes 1.32", async () => {
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
      if (i > 0)
        expect(normalize(version.schema, false)).toEqual(
          normalize(cg.spec.versions[i].schema, false),
        );
    }
    const ourSchema = ours.spec.versions[0].schema.openAPIV3Schema;
    const cgSchema = cg.spec.versions[0].schema.openAPIV3Schema;

    // Structure and values, everywhere.
    const found: string[] = [];
    differences(normalize(ourSchema, false), normalize(cgSchema, false), "", found);
    expect(found.map(readable).sort()).toEqual(NEWER_THAN_1_32);
    const at = (schema: Loose, path: string) =>
      path
        .slice(1)
        .split(".")
        .reduce(
          (s: Loose, key) =>
            key.endsWith("[]") ? s?.properties?.[key.slice(0, -2)]?.items : s?.properties?.[key],
          schema,
        );
    for (const path of NEWER_FIELDS) {
      expect(at(ourSchema, path), path).toBeUndefined();
      expect(at(cgSchema, path), path).toBeDefined();
    }
    expect(at(ourSchema, ON_POD_CONDITIONS).required).toEqual(["status", "type"]);
    expect(at(cgSchema, ON_POD_CONDITIONS).required).toEqual(["type"]);

    // The core types' descriptions: the OpenAPI document's words, equal up to line breaks where
    // the Kubernetes release is the same. The fixture's newer k8s.io/api reworded some fields
    // (features that went GA, C_IDENTIFIER relaxed, ...), and controller-gen gives the items of
    // `[]Capability` the Capability type's doc, which the OpenAPI document does not carry: those
    // are the few that differ.
    const jobTemplate = (s: Loose) => s.properties.spec.properties.jobTemplate;
    const described: string[] = [];
    differences(
      normalize(jobTemplate(ourSchema).properties.spec, true),
      normalize(jobTemplate(cgSchema).properties.spec, true),
      ".spec.jobTemplate.spec",
      described,
    );
    let total = 0;
    const count = (node: Loose): void => {
      if (!node || typeof node !== "object") return;
      if (typeof node.description === "string") total++;
      for (const child of Object.values(node.properties ?? {})) count(child);
      count(node.items);
      if (typeof node.additionalProperties === "object") count(node.additionalProperties);
    };
    count(jobTemplate(cgSchema).properties.spec);
    const reworded = described.filter((p) => p.endsWith(".description"));
    expect(total).toBeGreaterThan(1000);
    expect(reworded.length / total).toBeLessThan(0.06);
    expect(
      described
        .filter((p) => !p.endsWith(".description"))
        .map(readable)
        .sort(),
    ).toEqual(NEWER_THAN_1_32);

    // The core types themselves are there: the whole PodSpec, with formats, quantities, int-or-string.
    const pod = at(ourSchema, POD);
    expect(Object.keys(pod.properties).length).toBeGreaterThan(35);
    expect(
      pod.properties.containers.items.properties.resources.properties.limits.additionalProperties[
        "x-kubernetes-int-or-string"
      ],
    ).toBe(true);
    expect(pod.properties.containers.items.properties.ports.items.properties.protocol.default).toBe(
      "TCP",
    );
    expect(pod.properties.containers.items["x-kubernetes-list-map-keys"]).toBeUndefined();
    expect(pod.properties.containers.items.properties.ports["x-kubernetes-list-map-keys"]).toEqual([
      "containerPort",
      "protocol",
    ]);
  });
});
