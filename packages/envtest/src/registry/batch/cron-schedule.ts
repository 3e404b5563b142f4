/**
 * CronJob schedules as kube-apiserver parses them: robfig/cron v3's standard parser (five
 * fields: minute, hour, day of month, month, day of week; `*`, `?`, lists, ranges, steps, month
 * and weekday names; `@yearly` … `@hourly` and `@every <duration>`), with its error messages,
 * which kube reports verbatim. Own code: the npm cron parsers accept other grammars (seconds,
 * `L`, `W`) and word their errors differently.
 */

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTHS.map((m, i) => [m, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAYS.map((d, i) => [d, i])) },
];

const DESCRIPTORS = new Set([
  "@yearly",
  "@annually",
  "@monthly",
  "@weekly",
  "@daily",
  "@midnight",
  "@hourly",
]);

/** Go's time.ParseDuration grammar: `1h30m`, `1.5s`, `300ms`, ... */
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;

function parseCronInt(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr))
    throw new Error(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`,
    );
  const n = Number(expr);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Record<string, number> | undefined): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? parseCronInt(expr);
}

function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = rangeAndStep[0]!.split("-");
  let start: number;
  let end: number;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseCronInt(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) throw new Error(`too many slashes: ${expr}`);
  if (start < r.min)
    throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end)
    throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

/** The parser's error for a schedule, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    if (spec.length === 0) throw new Error("empty spec string");
    let s = spec;
    // A time zone prefix is the parser's business too (kube refuses it separately).
    const tz = /^(?:TZ|CRON_TZ)=(\S*)\s+/.exec(s);
    if (tz) s = s.slice(tz[0].length);
    if (s.startsWith("@")) {
      if (DESCRIPTORS.has(s)) return undefined;
      if (s.startsWith("@every ")) {
        const d = s.slice("@every ".length);
        if (!GO_DURATION.test(d))
          throw new Error(
            `failed to parse duration ${s}: time: invalid duration ${JSON.stringify(d)}`,
          );
        return undefined;
      }
      throw new Error(`unrecognized descriptor: ${s}`);
    }
    const fields = s.split(/\s+/).filter(Boolean);
    if (fields.length !== 5)
      throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`);
    fields.forEach((f, i) => {
      for (const part of f.split(",")) checkRange(part, FIELDS[i]!);
    });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
