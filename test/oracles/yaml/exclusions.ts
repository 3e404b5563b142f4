/**
 * Where opgen writes differently from yaml.v2 on purpose (docs/yaml.md, "Exclusions"), so the
 * rest of such a document is still compared byte for byte.
 *
 * - The key `<<`: yaml.v2 writes it plain and reads it back as a merge key (an error, or the
 *   value's entries merged into the map); opgen writes `"<<"`, which reads back as the key.
 *   Quoting makes the key two columns wider, which moves where the value on its line folds. So
 *   the expected output comes from yaml.v2 writing the document with each `<<` key renamed to a
 *   stand-in of the same width that sorts in the same place, the stand-in then put back quoted.
 */
import { compareKeys } from "../../../src/util/yaml/key-order.js";
import type { Json } from "../shrink.js";

const MERGE = "<<";
/** Written plain, four columns like `"<<"`, and after the common `<<` sorts like it. */
const STAND_IN = "<<!!";
/** A stand-in key where yaml.v2 writes one: after the indent and any `- ` or `: ` before it. */
const STAND_IN_LINE = /^( *(?:[-:] )*)<<!!:/gm;

export function hasMergeKey(v: Json): boolean {
  if (Array.isArray(v)) return v.some(hasMergeKey);
  if (v !== null && typeof v === "object") {
    return Object.entries(v).some(([k, x]) => k === MERGE || hasMergeKey(x));
  }
  return false;
}

function countMergeKeys(v: Json): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countMergeKeys(x), 0);
  if (v !== null && typeof v === "object") {
    let n = 0;
    for (const [k, x] of Object.entries(v)) n += (k === MERGE ? 1 : 0) + countMergeKeys(x);
    return n;
  }
  return 0;
}

/**
 * doc with every `<<` key renamed to the stand-in, or undefined when the stand-in would not sort
 * where `<<` does among its siblings (they start with `<<` too) or is a key already.
 */
export function withStandIns(v: Json): Json | undefined {
  if (Array.isArray(v)) {
    const items = v.map(withStandIns);
    return items.includes(undefined) ? undefined : (items as Json[]);
  }
  if (v === null || typeof v !== "object") return v;
  const keys = Object.keys(v);
  if (keys.includes(MERGE)) {
    if (keys.includes(STAND_IN)) return undefined;
    const same = keys.every(
      (k) => k === MERGE || compareKeys(STAND_IN, k) === compareKeys(MERGE, k),
    );
    if (!same) return undefined;
  }
  const out: { [key: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) {
    const renamed = withStandIns(x);
    if (renamed === undefined) return undefined;
    out[k === MERGE ? STAND_IN : k] = renamed;
  }
  return out;
}

/**
 * What opgen should write for doc, given yaml.v2's output for withStandIns(doc); undefined when
 * that cannot be told exactly (a literal block's line also looks like a stand-in key): then only
 * the read-back is checked.
 */
export function expectedFromStandIns(doc: Json, standInYaml: string): string | undefined {
  const lines = standInYaml.match(STAND_IN_LINE)?.length ?? 0;
  if (lines !== countMergeKeys(doc)) return undefined;
  return standInYaml.replace(STAND_IN_LINE, '$1"<<":');
}
