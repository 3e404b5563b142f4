/**
 * Duplicate fields in a JSON body (`{"replicas": 1, "replicas": 2}`), which JSON.parse silently
 * collapses and kube's strict decoder (sigs.k8s.io/json) reports as `duplicate field
 * "spec.replicas"`. Own code: a single pass over the text tracking each object's keys, cheap
 * enough to run on every write (parsers that report duplicates build a second tree).
 */

interface Frame {
  array: boolean;
  path: string;
  keys?: Set<string>;
  index: number;
  /** The key whose value comes next, for an object. */
  key?: string;
}

function join(frame: Frame): string {
  if (frame.array) return `${frame.path}[${frame.index}]`;
  return frame.path ? `${frame.path}.${frame.key}` : (frame.key ?? "");
}

interface Shape {
  keys: number;
  empties: boolean;
}

/** Counts a parsed body's keys and notes whether it holds a null, `{}` or `[]`, in one walk. */
function shape(v: unknown, acc: Shape): void {
  if (v === null) {
    acc.empties = true;
  } else if (Array.isArray(v)) {
    if (v.length === 0) acc.empties = true;
    for (const x of v) shape(x, acc);
  } else if (typeof v === "object") {
    let n = 0;
    for (const k in v) {
      n++;
      shape((v as Record<string, unknown>)[k], acc);
    }
    if (n === 0) acc.empties = true;
    acc.keys += n;
  }
}

/** Occurrences of `"` + `:` (every key's end, in JSON written without space before colons). */
function keyEnds(text: string): number {
  let n = 0;
  for (let i = text.indexOf('":'); i >= 0; i = text.indexOf('":', i + 2)) n++;
  return n;
}

/**
 * What decoding needs to know of a JSON body beyond its parsed value: its duplicate fields, and
 * whether it holds empty values at all. A body with as many key ends as the parsed tree has
 * keys holds no duplicate (the usual case, settled by native substring searches); otherwise it
 * is scanned. (A body that both spaces a key from its colon and quotes `":` inside a string
 * could hide a duplicate from the count; JSON encoders write neither.)
 */
export function inspectBody(
  text: string,
  parsed: unknown,
): { duplicates: string[]; empties: boolean } {
  const acc: Shape = { keys: 0, empties: false };
  shape(parsed, acc);
  const duplicates = keyEnds(text) === acc.keys ? [] : duplicateFields(text);
  return { duplicates, empties: acc.empties };
}

/** The paths of duplicate fields, in the order they appear; empty for most bodies. */
export function duplicateFields(text: string): string[] {
  const out: string[] = [];
  const stack: Frame[] = [];
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      const top = stack[stack.length - 1];
      if (expectKey && top && !top.array) {
        const raw = text.slice(start + 1, i);
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : raw;
        top.key = key;
        if (top.keys!.has(key)) out.push(join(top));
        else top.keys!.add(key);
        expectKey = false;
      }
    } else if (c === 0x7b /* { */) {
      const parent = stack[stack.length - 1];
      stack.push({ array: false, path: parent ? join(parent) : "", keys: new Set(), index: 0 });
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      const parent = stack[stack.length - 1];
      stack.push({ array: true, path: parent ? join(parent) : "", index: 0 });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else expectKey = true;
    }
  }
  return out;
}
