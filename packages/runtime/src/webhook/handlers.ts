/**
 * The admission handlers made from a typed defaulter or validator (controller-runtime's
 * defaulter_custom.go and validator_custom.go): which object each operation decodes, and how the
 * outcome becomes a verdict. Objects are checked to be of the webhook's kind (a typed Go decoder
 * refuses another version or kind the same way) and handed over as copies, so a validator cannot
 * change what the defaulter diffs.
 */
import type { Kind } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import { createJsonPatch } from "./patch.js";
import { allowed, errored, type Verdict, verdictFromError, withWarnings } from "./response.js";
import type {
  AdmissionContext,
  AdmissionHandler,
  CustomDefaulter,
  CustomValidator,
} from "./types.js";

type KindId = Pick<Kind, "apiVersion" | "kind">;

function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${kind}`;
}

/** The object at `raw` as a T, or the 400 verdict explaining why it is not one. */
function decode<T extends KubeObject>(raw: unknown, kind: KindId): T | Verdict {
  if (raw === undefined || raw === null) return errored(400, "there is no content to decode");
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return errored(400, "cannot decode the object: it is not a JSON object");
  }
  const obj = raw as KubeObject;
  if (
    (obj.apiVersion !== undefined && obj.apiVersion !== kind.apiVersion) ||
    (obj.kind !== undefined && obj.kind !== kind.kind)
  ) {
    return errored(
      400,
      `cannot decode ${gvkString(String(obj.apiVersion ?? ""), String(obj.kind ?? ""))} as ${gvkString(kind.apiVersion, kind.kind)}`,
    );
  }
  return structuredClone(obj) as T;
}

function isVerdict(x: unknown): x is Verdict {
  return typeof (x as Verdict).allowed === "boolean" && "status" in (x as object);
}

/** Defaulting: DELETE is allowed untouched; otherwise the defaulter's changes become a JSON Patch. */
export function defaultingHandler<T extends KubeObject>(
  kind: KindId,
  defaulter: CustomDefaulter<T>,
): AdmissionHandler {
  return async (ctx: AdmissionContext) => {
    const req = ctx.request;
    if (req.operation === "DELETE") return allowed();
    const obj = decode<T>(req.object, kind);
    if (isVerdict(obj)) return obj;
    try {
      // ctx.request.object is the object being defaulted, so the diff base stays as it was sent.
      await defaulter.default({ ...ctx, request: { ...req, object: obj } }, obj);
    } catch (err) {
      return verdictFromError(err);
    }
    const ops = createJsonPatch(req.object as object, obj);
    if (ops.length === 0) return allowed();
    return {
      ...allowed(),
      patch: Buffer.from(JSON.stringify(ops)).toString("base64"),
      patchType: "JSONPatch",
    };
  };
}

/** Validation: CREATE the new object, UPDATE old and new, DELETE the old one; CONNECT is allowed. */
export function validatingHandler<T extends KubeObject>(
  kind: KindId,
  validator: CustomValidator<T>,
): AdmissionHandler {
  return async (ctx: AdmissionContext) => {
    const req = ctx.request;
    let run: () => ReturnType<CustomValidator<T>["validateCreate"]>;
    switch (req.operation) {
      case "CONNECT":
        return allowed();
      case "CREATE": {
        const obj = decode<T>(req.object, kind);
        if (isVerdict(obj)) return obj;
        run = () => validator.validateCreate(ctx, obj);
        break;
      }
      case "UPDATE": {
        const obj = decode<T>(req.object, kind);
        if (isVerdict(obj)) return obj;
        const old = decode<T>(req.oldObject, kind);
        if (isVerdict(old)) return old;
        run = () => validator.validateUpdate(ctx, old, obj);
        break;
      }
      case "DELETE": {
        // The API server sends the object being deleted as oldObject (kubernetes PR #76346).
        const old = decode<T>(req.oldObject, kind);
        if (isVerdict(old)) return old;
        run = () => validator.validateDelete(ctx, old);
        break;
      }
      default:
        return errored(400, `unknown operation ${JSON.stringify(String(req.operation ?? ""))}`);
    }
    try {
      return withWarnings(allowed(), await run());
    } catch (err) {
      return verdictFromError(err);
    }
  };
}
