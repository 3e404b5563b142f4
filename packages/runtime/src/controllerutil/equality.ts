/**
 * Semantic equality and JSON merge-patch diffs of API objects. As apimachinery's
 * equality.Semantic, an absent field and an `undefined` one are equal; so are an empty list or map
 * and an absent one, since the server drops both when it serialises.
 */

type Json = unknown;

function isPlainObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isEmpty(v: Json): boolean {
  return (
    v === undefined ||
    (Array.isArray(v) && v.length === 0) ||
    (isPlainObject(v) && Object.keys(v).every((k) => v[k] === undefined))
  );
}

export function semanticEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/**
 * The RFC 7386 merge patch that turns `before` into `after`, or undefined when they are
 * semantically equal. Lists are replaced whole (merge patches cannot address list items).
 */
export function createMergePatch(before: Json, after: Json): Record<string, Json> | undefined {
  if (!isPlainObject(after)) throw new Error("merge patches are computed between objects");
  const base = isPlainObject(before) ? before : {};
  const patch: Record<string, Json> = {};
  for (const k of new Set([...Object.keys(base), ...Object.keys(after)])) {
    const b = base[k];
    const a = after[k];
    if (semanticEqual(b, a)) continue;
    if (a === undefined) patch[k] = null;
    else if (isPlainObject(a) && isPlainObject(b)) patch[k] = createMergePatch(b, a);
    else patch[k] = a;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}
