/**
 * Differential test of server-side apply and managedFields against sigs.k8s.io/structured-merge-diff
 * (the oracle in test/oracles/ssa): random CRD schemas and apply/update sequences by several
 * managers must give the same object, the same managedFields (FieldsV1 byte for byte) and the
 * same conflicts. OPGEN_SSA_SEED=<n> runs from another seed, OPGEN_SSA_CASES=<n> runs more; a
 * failure prints its seed and a shrunk scenario. Without Go and the SMD sources the test is
 * skipped with a notice, unless OPGEN_REQUIRE_ORACLES=1 (CI), where that fails.
 */
import { describe, expect, it } from "vitest";
import { difference, rootAtom, runEngine } from "../oracles/ssa/engine.js";
import { type OracleOp, runOracle, unavailable } from "../oracles/ssa/oracle.js";
import { API_VERSION, type Scenario, scenario, smdSchema } from "../oracles/ssa/scenarios.js";

const missing = unavailable();
const required = process.env.OPGEN_REQUIRE_ORACLES === "1";
if (missing && !required)
  console.warn(`\n!!! SKIPPED: the structured-merge-diff differential test: ${missing}\n`);

const SEED = Number(process.env.OPGEN_SSA_SEED ?? 20_260_101);
const CASES = Number(process.env.OPGEN_SSA_CASES ?? 2_000);

function disagreement(sc: Scenario, ops: OracleOp[]): string | undefined {
  const [theirs] = runOracle("root", API_VERSION, [
    { schema: smdSchema(sc.schema), ops, reset: sc.reset },
  ]);
  return difference(runEngine(rootAtom(sc.schema), ops, sc.reset), theirs!);
}

/** The shortest prefix-and-subset of operations that still disagrees. */
function shrink(sc: Scenario): OracleOp[] {
  let ops = sc.ops;
  for (let i = ops.length - 1; i >= 0; i--) {
    const fewer = ops.filter((_, j) => j !== i);
    if (fewer.length && disagreement(sc, fewer)) ops = fewer;
  }
  return ops;
}

describe.skipIf(missing !== undefined && !required)(
  "server-side apply vs structured-merge-diff",
  () => {
    it("the oracle can be built here", () => {
      expect(missing).toBeUndefined();
    });

    it(`agrees on ${CASES} random scenarios (seed ${SEED})`, () => {
      const scenarios = Array.from({ length: CASES }, (_, i) => scenario(SEED + i));
      // One oracle process per batch keeps the run in seconds.
      const failures: string[] = [];
      const batch = 500;
      for (let b = 0; b < scenarios.length && failures.length === 0; b += batch) {
        const chunk = scenarios.slice(b, b + batch);
        const results = runOracle(
          "root",
          API_VERSION,
          chunk.map((sc) => ({ schema: smdSchema(sc.schema), ops: sc.ops, reset: sc.reset })),
        );
        for (const [i, sc] of chunk.entries()) {
          const d = difference(runEngine(rootAtom(sc.schema), sc.ops, sc.reset), results[i]!);
          if (!d) continue;
          const ops = shrink(sc);
          failures.push(
            `seed ${sc.seed} (OPGEN_SSA_SEED=${sc.seed} OPGEN_SSA_CASES=1): ${disagreement(sc, ops)}\n` +
              `fields: ${sc.fields.join(", ")}; reset: ${JSON.stringify(sc.reset)}\nops: ${JSON.stringify(ops, null, 1)}`,
          );
          break;
        }
      }
      expect(failures).toEqual([]);
    }, 600_000);
  },
);
