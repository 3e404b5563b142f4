/**
 * Shrinks a JSON value a differential test found failing to a small one that still fails: each
 * round offers simpler variants (an entry or item removed, a node replaced by one of its children,
 * a string or key shortened, a number made 0) and keeps the first that fails, until none does.
 * Candidates go to the oracle in batches, so a round costs a few oracle runs.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Shorter variants of a string: empty, halves, then one code point less at each place. */
function* shorterStrings(s: string): Generator<string> {
  if (s === "") return;
  yield "";
  const cps = Array.from(s);
  if (cps.length > 1) {
    const half = Math.floor(cps.length / 2);
    yield cps.slice(0, half).join("");
    yield cps.slice(half).join("");
  }
  if (cps.length > 3) {
    const quarter = Math.floor(cps.length / 4);
    for (let i = 0; i < 4; i++) {
      yield [...cps.slice(0, i * quarter), ...cps.slice((i + 1) * quarter)].join("");
    }
  }
  if (cps.length <= 200) {
    for (let i = 0; i < cps.length; i++) yield [...cps.slice(0, i), ...cps.slice(i + 1)].join("");
  }
  // A non-ASCII or special character stands in for the same class as "a" would not.
  for (let i = 0; i < cps.length && cps.length <= 200; i++) {
    if (/[b-z]/.test(cps[i]!)) yield [...cps.slice(0, i), "a", ...cps.slice(i + 1)].join("");
  }
}

/** Every simpler variant of v, roughly biggest reductions first. */
export function* candidates(v: Json): Generator<Json> {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) yield [...v.slice(0, i), ...v.slice(i + 1)];
    for (const item of v) if (item !== null && typeof item === "object") yield item;
    for (let i = 0; i < v.length; i++) {
      for (const c of candidates(v[i]!)) yield [...v.slice(0, i), c, ...v.slice(i + 1)];
    }
    return;
  }
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v);
    for (const k of keys) {
      const { [k]: _, ...rest } = v;
      yield rest;
    }
    for (const k of keys) {
      const child = v[k]!;
      if (child !== null && typeof child === "object") yield child;
    }
    for (const k of keys) {
      for (const c of candidates(v[k]!)) yield { ...v, [k]: c };
    }
    for (const k of keys) {
      for (const shorter of shorterStrings(k)) {
        if (shorter in v || shorter === "__proto__") continue;
        const renamed: { [key: string]: Json } = {};
        for (const [key, value] of Object.entries(v)) renamed[key === k ? shorter : key] = value;
        yield renamed;
      }
    }
    return;
  }
  if (typeof v === "string") {
    yield* shorterStrings(v);
    return;
  }
  if (typeof v === "number" && v !== 0) {
    yield 0;
    if (!Number.isInteger(v)) yield Math.trunc(v);
  }
}

/**
 * The smallest failing variant of v found within maxRounds rounds. `failing` gets a batch of
 * candidates and returns the index of the first that still fails, or -1. A round offers the
 * candidates in growing batches (8, 32, 128, ...): the first few usually still fail.
 */
export function shrink(
  v: Json,
  failing: (batch: Json[]) => number,
  valid: (candidate: Json) => boolean = () => true,
  maxRounds = 300,
): Json {
  let current = v;
  for (let round = 0; round < maxRounds; round++) {
    const next = firstFailing(candidates(current), failing, valid);
    if (next === undefined) break;
    current = next;
  }
  return current;
}

function firstFailing(
  all: Iterator<Json>,
  failing: (batch: Json[]) => number,
  valid: (candidate: Json) => boolean,
): Json | undefined {
  for (let size = 8, offered = 0; offered < 4000; size *= 4) {
    const batch: Json[] = [];
    while (batch.length < size) {
      const c = all.next();
      if (c.done) break;
      if (valid(c.value)) batch.push(c.value);
    }
    if (batch.length === 0) return undefined;
    const index = failing(batch);
    if (index >= 0) return batch[index];
    offered += batch.length;
  }
  return undefined;
}
