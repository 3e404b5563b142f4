/**
 * ListOptions of a list request (`meta/internalversion/validation`): resourceVersion and
 * resourceVersionMatch semantics with their errors (422, 410 Expired, 504 Too large resource
 * version), and limit/continue pagination. Continue tokens are shaped like upstream's (base64url
 * JSON with the next key); pages are served from the current state, not a snapshot.
 */
import { errors } from "@opgen/apimachinery/status";
import type { JsonObject, KubeObject } from "../api/types.js";

/**
 * Integer query parameters (`limit`, `timeoutSeconds`) as kube's parameter codec converts them:
 * anything strconv.ParseInt refuses is a 400 with its message.
 */
export function checkIntegerParams(q: URLSearchParams): void {
  for (const name of ["limit", "timeoutSeconds"]) {
    const v = q.get(name);
    if (v !== null && !/^[+-]?\d+$/.test(v))
      throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  }
}

/** A requested resourceVersion against the current one: 400 when malformed, 504 when ahead. */
function checkResourceVersion(rv: string, current: number): number | undefined {
  if (!rv || rv === "0") return undefined;
  const n = Number(rv);
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(n)) {
    throw errors.badRequest(`invalid resource version: ${rv}`);
  }
  if (n > current) {
    throw errors.timeout(`Too large resource version: ${n}, current: ${current}`, [
      { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
    ]);
  }
  return n;
}

/**
 * GetOptions: the resourceVersion is checked before the object is looked up, as the watch cache
 * parses it first (a malformed one is refused even for a missing object).
 */
export function checkGetOptions(q: URLSearchParams, current: number): void {
  checkResourceVersion(q.get("resourceVersion") ?? "", current);
}

/** Validates list options against the current resourceVersion; throws the real errors. */
export function checkListOptions(q: URLSearchParams, current: number): void {
  checkIntegerParams(q);
  const rv = q.get("resourceVersion") ?? "";
  const rvMatch = q.get("resourceVersionMatch") ?? "";
  if (rvMatch && !rv) {
    throw errors.invalidOptions("ListOptions", [
      {
        type: "FieldValueForbidden",
        field: "resourceVersionMatch",
        detail: "resourceVersionMatch is forbidden unless resourceVersion is provided",
      },
    ]);
  }
  if (rvMatch && rvMatch !== "NotOlderThan" && rvMatch !== "Exact") {
    throw errors.invalidOptions("ListOptions", [
      {
        type: "FieldValueNotSupported",
        field: "resourceVersionMatch",
        value: rvMatch,
        detail: 'supported values: "Exact", "NotOlderThan"',
      },
    ]);
  }
  if (q.has("sendInitialEvents")) {
    throw errors.invalidOptions("ListOptions", [
      {
        type: "FieldValueForbidden",
        field: "sendInitialEvents",
        detail: "sendInitialEvents is forbidden for list",
      },
    ]);
  }
  const n = checkResourceVersion(rv, current);
  if (n !== undefined) {
    if (rvMatch === "Exact" && n !== current) {
      throw errors.expired("The resourceVersion for the provided list is too old.");
    }
  }
}

export interface Page {
  items: KubeObject[];
  metadata: JsonObject;
}

function keyOf(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;
}

/**
 * Applies continue and limit to objects sorted by namespace/name. `selected`: a label or field
 * selector chose the objects, so the store cannot count what is left and remainingItemCount stays
 * unset (the predicate is not empty: staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go).
 */
export function paginate(
  all: KubeObject[],
  q: URLSearchParams,
  current: number,
  selected = false,
): Page {
  let items = all;
  const metadata: JsonObject = { resourceVersion: String(current) };
  const cont = q.get("continue");
  if (cont) {
    let token: { rv?: number; start?: string; v?: string };
    try {
      token = JSON.parse(Buffer.from(cont, "base64url").toString());
    } catch {
      throw errors.badRequest("continue key is not valid: illegal base64 data");
    }
    if (token.v !== "meta.k8s.io/v1" || typeof token.start !== "string") {
      throw errors.badRequest(
        "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
      );
    }
    const start = token.start;
    items = items.filter((o) => keyOf(o) >= start);
  }
  const limit = Number(q.get("limit") ?? "0");
  if (Number.isInteger(limit) && limit > 0 && items.length > limit) {
    const start = keyOf(items[limit]!);
    metadata.continue = Buffer.from(
      JSON.stringify({ v: "meta.k8s.io/v1", rv: current, start }),
    ).toString("base64url");
    if (!selected) metadata.remainingItemCount = items.length - limit;
    items = items.slice(0, limit);
  }
  return { items, metadata };
}
