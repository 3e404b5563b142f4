/**
 * The part of cel-go's strings extension (version 2, as Kubernetes 1.32 enables it) that cel-js
 * does not have built in: `charAt`, `replace`, `format` and `strings.quote`. Indexes count code
 * points, as in Go.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { namespace } from "./namespace.js";
import { celError } from "./values.js";

function charAt(s: string, i: bigint): string {
  const chars = [...s];
  const n = Number(i);
  if (n < 0 || n > chars.length) throw celError(`index out of range: ${i}`);
  return chars[n] ?? "";
}

function replace(s: string, from: string, to: string, limit = -1n): string {
  if (limit === 0n) return s;
  if (limit < 0n) return s.split(from).join(to);
  let out = s;
  let done = 0n;
  let at = 0;
  while (done < limit) {
    const i = out.indexOf(from, at);
    if (i < 0) break;
    out = out.slice(0, i) + to + out.slice(i + from.length);
    at = i + to.length + (from === "" ? 1 : 0);
    done++;
  }
  return out;
}

/** Go's strconv.Quote, which strings.quote follows. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\x07") out += "\\a";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\v") out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function formatValue(verb: string, precision: number | undefined, v: unknown): string {
  switch (verb) {
    case "s":
      if (typeof v === "string") return v;
      if (v instanceof Uint8Array) return Buffer.from(v).toString("utf8");
      if (Array.isArray(v)) return `[${v.map((x) => formatValue("s", undefined, x)).join(", ")}]`;
      if (v === null) return "null";
      if (typeof v === "number") return Number.isInteger(v) ? v.toFixed(0) : String(v);
      return String(v);
    case "d":
      if (typeof v !== "bigint")
        throw celError(
          `error during formatting: decimal clause can only be used on integers, was given ${typeName(v)}`,
        );
      return v.toString();
    case "f":
    case "e": {
      const n = typeof v === "bigint" ? Number(v) : v;
      if (typeof n !== "number")
        throw celError(
          `error during formatting: fixed-point clause can only be used on doubles, was given ${typeName(v)}`,
        );
      if (Number.isNaN(n)) return "NaN";
      if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
      const p = precision ?? 6;
      if (verb === "f") return n.toFixed(p);
      const [m, e = "0"] = n.toExponential(p).split("e");
      const exp = Number(e);
      return `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
    }
    case "x":
    case "X": {
      let out: string;
      if (typeof v === "bigint") out = (v < 0n ? "-" : "") + (v < 0n ? -v : v).toString(16);
      else if (typeof v === "string") out = Buffer.from(v, "utf8").toString("hex");
      else if (v instanceof Uint8Array) out = Buffer.from(v).toString("hex");
      else
        throw celError(
          `error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(v)}`,
        );
      return verb === "X" ? out.toUpperCase() : out;
    }
    case "o":
      if (typeof v !== "bigint")
        throw celError(
          `error during formatting: octal clause can only be used on integers, was given ${typeName(v)}`,
        );
      return (v < 0n ? "-" : "") + (v < 0n ? -v : v).toString(8);
    case "b":
      if (typeof v === "boolean") return v ? "1" : "0";
      if (typeof v !== "bigint")
        throw celError(
          `error during formatting: only integers and bools can be formatted as binary, was given ${typeName(v)}`,
        );
      return (v < 0n ? "-" : "") + (v < 0n ? -v : v).toString(2);
    default:
      throw celError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
  }
}

function typeName(v: unknown): string {
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "double";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "list";
  return typeof v;
}

function format(template: string, args: unknown[]): string {
  let out = "";
  let argi = 0;
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch !== "%") {
      out += ch;
      continue;
    }
    if (template[i + 1] === "%") {
      out += "%";
      i++;
      continue;
    }
    const m = /^\.(\d+)/.exec(template.slice(i + 1));
    let precision: number | undefined;
    if (m) {
      precision = Number(m[1]);
      i += m[0].length;
    }
    const verb = template[i + 1];
    if (verb === undefined)
      throw celError("could not parse formatting clause: unexpected end of string");
    i++;
    if (argi >= args.length) throw celError(`index ${argi} out of range`);
    out += formatValue(verb, precision, args[argi++]);
  }
  return out;
}

export function registerStrings(env: Environment): void {
  env.registerFunction("string.charAt(int): string", charAt);
  env.registerFunction(
    "string.replace(string, string): string",
    (s: string, a: string, b: string) => replace(s, a, b),
  );
  env.registerFunction(
    "string.replace(string, string, int): string",
    (s: string, a: string, b: string, n: bigint) => replace(s, a, b, n),
  );
  env.registerFunction("string.format(list): string", (s: string, args: unknown[]) =>
    format(s, args),
  );
  const ns = namespace(env, "strings");
  env.registerFunction(`${ns}.quote(string): string`, (_: unknown, s: string) => goQuote(s));
}
