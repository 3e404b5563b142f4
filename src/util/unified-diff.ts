/**
 * Unified diffs (`diff -u` style, 3 lines of context) between two texts, for `--check` modes that
 * show what is stale. Line diff by Myers' O(ND) algorithm; past a large edit distance the whole
 * file is shown as replaced, which is what a reader needs at that point anyway.
 */

type Op = { kind: " " | "-" | "+"; line: string };

const MAX_EDITS = 4000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(max, MAX_EDITS); d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0)
    return [
      ...a.map((line) => ({ kind: "-" as const, line })),
      ...b.map((line) => ({ kind: "+" as const, line })),
    ];
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK =
      k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: " ", line: a[--x]! });
      y--;
    }
    if (x === prevX) ops.push({ kind: "+", line: b[--y]! });
    else ops.push({ kind: "-", line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: " ", line: a[--x]! });
    y--;
  }
  return ops.reverse();
}

/** A unified diff from `before` to `after` with file headers; "" when they are equal. */
export function unifiedDiff(
  path: string,
  before: string | undefined,
  after: string | undefined,
  context = 3,
): string {
  if (before === after) return "";
  const a = splitLines(before ?? "");
  const b = splitLines(after ?? "");
  const ops = diffLines(a, b);
  const out = [
    `--- ${before === undefined ? "/dev/null" : `a/${path}`}`,
    `+++ ${after === undefined ? "/dev/null" : `b/${path}`}`,
  ];
  // Group changes with their context into hunks.
  let i = 0;
  const aLine = new Int32Array(ops.length + 1);
  const bLine = new Int32Array(ops.length + 1);
  for (let j = 0, x = 0, y = 0; j < ops.length; j++) {
    aLine[j] = x;
    bLine[j] = y;
    if (ops[j]!.kind !== "+") x++;
    if (ops[j]!.kind !== "-") y++;
  }
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === " ") i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    let lastChange = i;
    while (end < ops.length) {
      if (ops[end]!.kind !== " ") lastChange = end;
      else if (end - lastChange > 2 * context) break;
      end++;
    }
    end = Math.min(ops.length, lastChange + context + 1);
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((o) => o.kind !== "+").length;
    const bCount = hunk.filter((o) => o.kind !== "-").length;
    const aStart = aCount ? aLine[start]! + 1 : aLine[start]!;
    const bStart = bCount ? bLine[start]! + 1 : bLine[start]!;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    i = end;
  }
  return `${out.join("\n")}\n`;
}
