/** Small helpers of the schema walker: hoisting of conflicting validations, names, order. */

import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { ts } from "ts-morph";

export interface TypeResult {
  schema: JSONSchemaProps;
  nullable: boolean;
}

/** Validations that, set differently by a field and by its type, both stay (under `allOf`). */
export const HOISTED = [
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "enum",
  "format",
] as const;
export type HoistedKey = (typeof HOISTED)[number];

/**
 * When a field's marker changed a validation its type had set, controller-gen keeps both: the
 * type's values and the field's go into `allOf` (in that order) and leave the top level
 * (pkg/crd/flatten.go). Validations only one side sets stay at the top level.
 */
export function hoistConflicts(
  schema: JSONSchemaProps,
  fromType: Partial<Record<HoistedKey, unknown>>,
): void {
  const typeSide: Record<string, unknown> = {};
  const fieldSide: Record<string, unknown> = {};
  for (const key of HOISTED) {
    const before = fromType[key];
    if (before === undefined || JSON.stringify(before) === JSON.stringify(schema[key])) continue;
    typeSide[key] = before;
    fieldSide[key] = schema[key];
    delete schema[key];
  }
  if (Object.keys(typeSide).length) {
    schema.allOf = [
      ...(schema.allOf ?? []),
      typeSide as JSONSchemaProps,
      fieldSide as JSONSchemaProps,
    ];
  }
}

export function withNullable(r: TypeResult): JSONSchemaProps {
  if (r.nullable) r.schema.nullable = true;
  return r.schema;
}

export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isExported(t: typeof ts, node: ts.Node): boolean {
  return (
    (node as ts.HasModifiers).modifiers?.some((m) => m.kind === t.SyntaxKind.ExportKeyword) ?? false
  );
}

export function propertyName(t: typeof ts, name: ts.PropertyName): string | undefined {
  if (
    t.isIdentifier(name) ||
    t.isStringLiteral(name) ||
    t.isNumericLiteral(name) ||
    t.isPrivateIdentifier(name)
  )
    return name.text;
  return undefined;
}
