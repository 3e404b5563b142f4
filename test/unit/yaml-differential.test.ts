/**
 * opgen's YAML writer against the library controller-gen writes with: random CRD-shaped documents
 * go through src/util/yaml.ts and through gopkg.in/yaml.v2 (a Go oracle built from Debian's
 * packages, test/oracles/yaml/main.go), and must come out byte for byte the same; yaml.v2 must read
 * opgen's YAML back as the value meant. A failure names the seed and shrinks the document.
 *
 * OPGEN_YAML_SEED=<n> replays a run, OPGEN_YAML_DOCS=<n> changes how many documents it draws.
 * See docs/yaml.md.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type GoOracle, goOracle, withoutOracle } from "../helpers/go-oracle.js";
import { type Json, shrink } from "../oracles/shrink.js";
import { type Checked, checkDocuments } from "../oracles/yaml/check.js";
import { YAML_CLASSES } from "../oracles/yaml/classes.js";
import { allKeysConsistent, DocumentGenerator } from "../oracles/yaml/generate.js";
import { askYamlOracle, YAML_ORACLE } from "../oracles/yaml/oracle.js";

const SEED = process.env.OPGEN_YAML_SEED
  ? Number(process.env.OPGEN_YAML_SEED)
  : Math.floor(Math.random() * 2 ** 32);
const DOCS = Number(process.env.OPGEN_YAML_DOCS ?? 2000);

let oracle: GoOracle;
beforeAll(() => {
  oracle = goOracle(YAML_ORACLE);
}, 300_000);

/** The oracle program, or a skip (a failure under OPGEN_REQUIRE_ORACLES=1). */
function binary(skip: () => void): string | undefined {
  if (oracle.missing === undefined) return oracle.binary;
  withoutOracle(YAML_ORACLE, oracle.missing, skip);
  return undefined;
}

/** Characters encoding/json leaves raw that yaml.v2's reader refuses (or, NEL, folds). */
const JSON_TEXT_QUIRK = /[\u007f-\u009f\ufffe\uffff]/;

function hasQuirk(v: Json): boolean {
  if (typeof v === "string") return JSON_TEXT_QUIRK.test(v);
  if (Array.isArray(v)) return v.some(hasQuirk);
  if (v !== null && typeof v === "object") {
    return Object.entries(v).some(([k, x]) => JSON_TEXT_QUIRK.test(k) || hasQuirk(x));
  }
  return false;
}

/** JSON with everything outside printable ASCII escaped, so invisible characters show. */
const visible = (v: unknown) =>
  JSON.stringify(v).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

function report(bin: string, first: Checked, failures: number): string {
  const minimal = shrink(
    first.doc,
    (batch) => checkDocuments(bin, batch).findIndex((c) => !c.ok),
    allKeysConsistent,
  );
  const [c] = checkDocuments(bin, [minimal]);
  return [
    `opgen's YAML differs from yaml.v2's in ${failures} of ${DOCS} documents (seed ${SEED}).`,
    `Replay: OPGEN_YAML_SEED=${SEED} npx vitest run test/unit/yaml-differential.test.ts`,
    `Smallest failing document (JSON): ${visible(minimal)}`,
    `opgen:   ${visible(c!.ours)}`,
    `yaml.v2: ${visible(c!.expected ?? c!.answer.v2)}`,
    `yaml.v2 reading opgen's back: ${c!.answer.readBack || "the same value"}${c!.answer.err ? ` (${c!.answer.err})` : ""}`,
  ].join("\n");
}

describe("the YAML writer against gopkg.in/yaml.v2", () => {
  it(`writes ${DOCS} random CRD-shaped documents byte for byte as yaml.v2 does`, (ctx) => {
    const bin = binary(() => ctx.skip());
    if (!bin) return;
    const gen = new DocumentGenerator(SEED);
    const checked = checkDocuments(
      bin,
      Array.from({ length: DOCS }, () => gen.document()),
    );
    const failing = checked.filter((c) => !c.ok);
    if (failing.length > 0) expect.fail(report(bin, failing[0]!, failing.length));

    // The oracle writes the value with yaml.v2 directly; controller-gen goes through
    // encoding/json first (sigs.k8s.io/yaml, genall). The two agree except where the JSON text
    // holds a character yaml.v2's reader refuses or folds (docs/yaml.md).
    const disagree = checked.find(({ doc, answer: a }) => {
      const sameAsSigs = a.sigsErr === undefined && a.sigs === a.v2;
      const sameAsGenall = a.genall === undefined || a.genall === a.sigs;
      return !(sameAsSigs && sameAsGenall) && !hasQuirk(doc);
    });
    expect(
      disagree && JSON.stringify({ doc: disagree.doc, answer: disagree.answer }),
      `seed ${SEED}: sigs.k8s.io/yaml and yaml.v2 disagree on a document without a known cause`,
    ).toBeUndefined();
  }, 120_000);

  it("has yaml.v2's own output in the table of special cases (test/oracles/yaml/classes.ts)", (ctx) => {
    const bin = binary(() => ctx.skip());
    if (!bin) return;
    const answers = askYamlOracle(
      bin,
      YAML_CLASSES.map((c) => ({ doc: c.doc })),
    );
    expect(answers.map((a) => a.v2)).toEqual(YAML_CLASSES.map((c) => c.yaml));
  });
});
