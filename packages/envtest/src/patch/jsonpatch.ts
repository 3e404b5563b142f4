/**
 * RFC 6902 JSON Patch, with the errors kube-apiserver returns: undecodable patches are 400,
 * failing operations (missing paths, failed `test`) are 422 Invalid, more than 10000 operations
 * are 413.
 */
import { ApiError, errors } from "@opgen/apimachinery/status";
import { deepClone, deepEqual, isObject } from "../api/types.js";

interface Op {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

function parsePointer(p: string): string[] {
  if (p === "") return [];
  if (!p.startsWith("/")) throw new Error(`invalid JSON pointer: ${p}`);
  return p
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function fail(msg: string): ApiError {
  return new ApiError(
    422,
    "Invalid",
    "the server rejected our request due to an error in our request",
    {
      causes: [{ reason: "FieldValueInvalid", message: msg }],
    },
  );
}

function parent(doc: unknown, tokens: string[], path: string): { container: unknown; key: string } {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined) throw fail(`doc is missing path: "${path}": missing value`);
  }
  return { container: cur, key: tokens[tokens.length - 1]! };
}

function getAt(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const t of parsePointer(path)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { container, key } = parent(doc, tokens, path);
  if (Array.isArray(container)) {
    const idx = key === "-" ? container.length : Number(key);
    if (!Number.isInteger(idx) || idx < 0 || idx > container.length) {
      throw fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
    }
    container.splice(idx, 0, value);
  } else if (isObject(container)) {
    container[key] = value;
  } else {
    throw fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
  }
  return doc;
}

function remove(doc: unknown, path: string, op: string): unknown {
  const tokens = parsePointer(path);
  const { container, key } = parent(doc, tokens, path);
  if (Array.isArray(container)) {
    const idx = Number(key);
    if (!Number.isInteger(idx) || idx < 0 || idx >= container.length) {
      throw fail(`${op} operation does not apply: doc is missing key: ${path}: missing value`);
    }
    container.splice(idx, 1);
  } else if (isObject(container) && Object.hasOwn(container, key)) {
    delete container[key];
  } else {
    throw fail(`${op} operation does not apply: doc is missing key: ${path}: missing value`);
  }
  return doc;
}

/** Applies a JSON patch body to a copy of `doc`. */
export function applyJsonPatch(doc: unknown, body: string): unknown {
  let ops: unknown;
  try {
    ops = JSON.parse(body);
  } catch (e) {
    throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  if (!Array.isArray(ops)) {
    throw errors.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  }
  if (ops.length > 10000) {
    throw new ApiError(
      413,
      "RequestEntityTooLarge",
      `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got ${ops.length}`,
    );
  }
  let out = deepClone(doc);
  for (const raw of ops as Op[]) {
    if (!isObject(raw) || typeof raw.op !== "string") {
      throw errors.badRequest("error decoding patch: unexpected kind of operation");
    }
    try {
      switch (raw.op) {
        case "add":
          out = add(out, raw.path, deepClone(raw.value));
          break;
        case "remove":
          out = remove(out, raw.path, "remove");
          break;
        case "replace": {
          if (getAt(out, raw.path) === undefined) {
            throw fail(
              `replace operation does not apply: doc is missing key: ${raw.path}: missing value`,
            );
          }
          if (raw.path === "") out = deepClone(raw.value);
          else {
            out = remove(out, raw.path, "replace");
            out = add(out, raw.path, deepClone(raw.value));
          }
          break;
        }
        case "move": {
          const v = getAt(out, raw.from ?? "");
          if (v === undefined)
            throw fail(
              `move operation does not apply: doc is missing from path: ${raw.from}: missing value`,
            );
          out = remove(out, raw.from ?? "", "move");
          out = add(out, raw.path, v);
          break;
        }
        case "copy": {
          const v = getAt(out, raw.from ?? "");
          if (v === undefined)
            throw fail(
              `copy operation does not apply: doc is missing from path: ${raw.from}: missing value`,
            );
          out = add(out, raw.path, deepClone(v));
          break;
        }
        case "test": {
          const v = getAt(out, raw.path);
          if (!deepEqual(v, raw.value)) {
            throw fail(`testing value ${raw.path} failed: test failed`);
          }
          break;
        }
        default:
          throw errors.badRequest(`Unexpected kind: ${raw.op}`);
      }
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw fail((e as Error).message);
    }
  }
  return out;
}
