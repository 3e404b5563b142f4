/**
 * The query options of the pod connect subresources as kube-apiserver 1.32 decodes them (its
 * parameter codec's url.Values conversions) and validates them: PodLogOptions (`pods/log`),
 * PodExecOptions, PodAttachOptions and PodPortForwardOptions. A value the conversion refuses is
 * a 400 with Go's strconv/time message; PodLogOptions' validation failures are a 422.
 */
import { ApiError, errors, type FieldError, fieldErrorBody } from "@opgen/apimachinery/status";

export interface LogOptions {
  container: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  sinceSeconds?: bigint;
  /** RFC 3339 as the kubelet would receive it (UTC, whole seconds). */
  sinceTime?: string;
  tailLines?: bigint;
  limitBytes?: bigint;
}

export interface StreamOptions {
  container: string;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
  command: string[];
}

/** Go's Convert_Slice_string_To_bool: only "0" and "false" (any case) are false. */
function bool(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v !== null && v !== "0" && v.toLowerCase() !== "false";
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(v, 10, 64), with its error texts. */
function parseInt64(v: string): bigint {
  if (!/^[+-]?\d+$/.test(v))
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n < INT64_MIN || n > INT64_MAX)
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return n;
}

function int64(q: URLSearchParams, name: string): bigint | undefined {
  const v = q.get(name);
  return v === null ? undefined : parseInt64(v);
}

/** PodLogOptions from the query, in the order kube's conversion reads the fields. */
export function decodeLogOptions(q: URLSearchParams): LogOptions {
  const opts: LogOptions = {
    container: q.get("container") ?? "",
    follow: bool(q, "follow"),
    previous: bool(q, "previous"),
    timestamps: false,
  };
  const sinceSeconds = int64(q, "sinceSeconds");
  if (sinceSeconds !== undefined) opts.sinceSeconds = sinceSeconds;
  const sinceTime = q.get("sinceTime");
  // An empty or "null" sinceTime is a zero time, still "set" (metav1.Time's query decoding).
  if (sinceTime !== null) opts.sinceTime = parseRFC3339(sinceTime);
  opts.timestamps = bool(q, "timestamps");
  const tailLines = int64(q, "tailLines");
  if (tailLines !== undefined) opts.tailLines = tailLines;
  const limitBytes = int64(q, "limitBytes");
  if (limitBytes !== undefined) opts.limitBytes = limitBytes;
  return opts;
}

/** ValidatePodLogOptions; the 422 names the pod, as LogREST reports it. */
export function validateLogOptions(name: string, o: LogOptions): void {
  const errs: FieldError[] = [];
  if (o.tailLines !== undefined && o.tailLines < 0n)
    errs.push({
      type: "FieldValueInvalid",
      field: "tailLines",
      value: Number(o.tailLines),
      detail: "must be greater than or equal to 0",
    });
  if (o.limitBytes !== undefined && o.limitBytes < 1n)
    errs.push({
      type: "FieldValueInvalid",
      field: "limitBytes",
      value: Number(o.limitBytes),
      detail: "must be greater than 0",
    });
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined)
    errs.push({
      type: "FieldValueForbidden",
      field: "",
      detail: "at most one of `sinceTime` or `sinceSeconds` may be specified",
    });
  else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1n)
    errs.push({
      type: "FieldValueInvalid",
      field: "sinceSeconds",
      value: Number(o.sinceSeconds),
      detail: "must be greater than 0",
    });
  if (errs.length === 0) return;
  // Go's field.Error prints "<field>: <body>" even for the empty path of the sinceTime rule.
  const parts = [...new Set(errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`))];
  const aggregate = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  throw new ApiError(422, "Invalid", `PodLogOptions "${name}" is invalid: ${aggregate}`, {
    name,
    kind: "PodLogOptions",
    causes: errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
  });
}

/** PodExecOptions / PodAttachOptions: booleans are lenient, so only the shape is decoded. */
export function decodeStreamOptions(q: URLSearchParams, exec: boolean): StreamOptions {
  return {
    stdin: bool(q, "stdin"),
    stdout: bool(q, "stdout"),
    stderr: bool(q, "stderr"),
    tty: bool(q, "tty"),
    container: q.get("container") ?? "",
    command: exec ? q.getAll("command") : [],
  };
}

/** PodPortForwardOptions.ports: repeated or comma-separated, each a uint16. */
export function decodePorts(q: URLSearchParams): number[] {
  const ports: number[] = [];
  for (const value of q.getAll("ports")) {
    for (const p of value.split(",")) {
      const why = !/^\d+$/.test(p)
        ? "invalid syntax"
        : BigInt(p) > 65535n
          ? "value out of range"
          : undefined;
      if (why)
        throw errors.badRequest(
          `cannot convert to []int32: strconv.ParseUint: parsing ${JSON.stringify(p)}: ${why}`,
        );
      ports.push(Number(p));
    }
  }
  return ports;
}

const RFC3339 = "2006-01-02T15:04:05Z07:00";

/**
 * metav1.Time's query decoding: "" and "null" are the zero time, anything else goes through Go's
 * time.Parse(RFC3339) with its error texts (the element that failed, or the field out of range).
 * Returns the time as the kubelet would be sent it.
 */
export function parseRFC3339(value: string): string {
  if (value === "" || value === "null") return "0001-01-01T00:00:00Z";
  const q = JSON.stringify;
  const cannot = (rest: string, elem: string) =>
    errors.badRequest(
      `parsing time ${q(value)} as ${q(RFC3339)}: cannot parse ${q(rest)} as ${q(elem)}`,
    );
  const range = (what: string) =>
    errors.badRequest(`parsing time ${q(value)}: ${what} out of range`);
  let rest = value;
  const digits = (elem: string, fixed: boolean, len = 2): number => {
    const n = /^\d+/.exec(rest)?.[0] ?? "";
    const take = fixed || elem === "2006" ? len : Math.min(n.length, len);
    if (n.length < take || take === 0) throw cannot(rest, elem);
    const v = Number(rest.slice(0, take));
    rest = rest.slice(take);
    return v;
  };
  const literal = (s: string) => {
    if (!rest.startsWith(s)) throw cannot(rest, s);
    rest = rest.slice(s.length);
  };
  const year = digits("2006", true, 4);
  literal("-");
  const month = digits("01", true);
  if (month < 1 || month > 12) throw range("month");
  literal("-");
  const day = digits("02", true);
  literal("T");
  const hour = digits("15", false);
  if (hour > 23) throw range("hour");
  literal(":");
  const minute = digits("04", true);
  if (minute > 59) throw range("minute");
  literal(":");
  const second = digits("05", true);
  if (second > 59) throw range("second");
  const fraction = /^[.,]\d+/.exec(rest);
  if (fraction) rest = rest.slice(fraction[0].length);
  let offsetMinutes = 0;
  if (rest.startsWith("Z")) rest = rest.slice(1);
  else {
    const tz = /^([+-])(\d\d):(\d\d)/.exec(rest);
    if (!tz) throw cannot(rest, "Z07:00");
    if (Number(tz[2]) > 24) throw range("time zone offset hour");
    if (Number(tz[3]) > 60) throw range("time zone offset minute");
    offsetMinutes = (tz[1] === "-" ? -1 : 1) * (Number(tz[2]) * 60 + Number(tz[3]));
    rest = rest.slice(6);
  }
  if (rest !== "") throw errors.badRequest(`parsing time ${q(value)}: extra text: ${q(rest)}`);
  const daysIn = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysIn) throw range("day");
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, second, 0);
  return `${utc.toISOString().slice(0, 19)}Z`;
}
