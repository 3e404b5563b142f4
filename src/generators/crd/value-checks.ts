/**
 * Values kube-apiserver would refuse when the CRD is created, caught at generation with the
 * marker's position instead: negative lengths and counts, a minimum above its maximum, a
 * `MultipleOf` that is not positive (which it stores, then refuses every value with), and a
 * `@default` that its own field's schema rejects (kube validates defaults against the schema
 * they stand in, `apiextensions-apiserver` validation of `default`).
 */
import { type JSONSchemaProps, validateSchema } from "@opgen/apimachinery/schema";
import { aggregateFieldErrors } from "@opgen/apimachinery/status";
import type { ParsedMarker } from "../../markers/types.js";

export interface ValueProblem {
  marker: ParsedMarker;
  message: string;
}

const COUNTS = ["MinLength", "MaxLength", "MinItems", "MaxItems", "MinProperties", "MaxProperties"];
const PAIRS: [
  lower: string,
  upper: string,
  lowKey: keyof JSONSchemaProps,
  highKey: keyof JSONSchemaProps,
][] = [
  ["Minimum", "Maximum", "minimum", "maximum"],
  ["MinLength", "MaxLength", "minLength", "maxLength"],
  ["MinItems", "MaxItems", "minItems", "maxItems"],
  ["MinProperties", "MaxProperties", "minProperties", "maxProperties"],
];

/**
 * kube-apiserver stores a CRD with `multipleOf` ≤ 0, then refuses every value of the field
 * (kube-openapi's MultipleOfMustBePositive); opgen refuses the marker instead.
 */
function multipleOfProblem(
  m: ParsedMarker,
  value: number,
  subject: string,
  items: boolean,
): string {
  const field = /^field "(.*)"$/.exec(subject)?.[1];
  const kube =
    field && !items
      ? ` ("factor MultipleOf declared for ${field} must be positive: ${value}")`
      : "";
  return `@${m.def.name}=${value}: must be positive; kube-apiserver would refuse every value of ${items ? `the items of ${subject}` : subject}${kube}`;
}

/** The marker's validation name (`Minimum`), and whether it applies to the items. */
function validationName(m: ParsedMarker): { name: string; items: boolean } | undefined {
  const match = /^validation (items:)?(\w+)$/.exec(m.def.name);
  return match ? { name: match[2]!, items: !!match[1] } : undefined;
}

export function valueProblems(
  schema: JSONSchemaProps,
  markers: readonly ParsedMarker[],
  subject: string,
): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const byName = new Map<string, ParsedMarker>();
  for (const m of markers) {
    const v = validationName(m);
    if (!v) continue;
    byName.set(`${v.items ? "items:" : ""}${v.name}`, m);
    const value = m.args[""];
    if (COUNTS.includes(v.name) && typeof value === "number" && value < 0) {
      problems.push({
        marker: m,
        message: `@${m.def.name}=${value}: must not be negative`,
      });
    }
    if (v.name === "MultipleOf" && typeof value === "number" && value <= 0) {
      problems.push({ marker: m, message: multipleOfProblem(m, value, subject, v.items) });
    }
  }
  for (const items of [false, true]) {
    const target = items ? schema.items : schema;
    if (!target || Array.isArray(target)) continue;
    for (const [lower, upper, lowKey, highKey] of PAIRS) {
      const low = target[lowKey];
      const high = target[highKey];
      if (typeof low !== "number" || typeof high !== "number" || low <= high) continue;
      const prefix = items ? "items:" : "";
      const at = byName.get(`${prefix}${upper}`) ?? byName.get(`${prefix}${lower}`);
      if (at) {
        problems.push({
          marker: at,
          message: `@validation ${prefix}${lower}=${low} is greater than @validation ${prefix}${upper}=${high} on ${subject}; nothing could be valid`,
        });
      }
    }
  }
  const defaultMarker = markers.find((m) => m.def.name === "default");
  if (defaultMarker && schema.default !== undefined) {
    const { default: value, ...rest } = schema;
    const errors = validateSchema(value, rest as JSONSchemaProps, "default");
    if (errors.length > 0) {
      const why = aggregateFieldErrors(errors);
      problems.push({
        marker: defaultMarker,
        message: `@default ${JSON.stringify(value)} is not valid for ${subject}, and kube-apiserver would refuse the CRD: ${why}`,
      });
    }
  }
  return problems;
}
