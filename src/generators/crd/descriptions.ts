/**
 * `--max-desc-len`: shortens every description of a schema as controller-gen's `crd:maxDescLen`
 * does, for CRDs that outgrow the 256 KiB `last-applied-configuration` annotation. 0 drops all
 * descriptions (apiVersion and kind included); otherwise a longer description is cut at the last
 * sentence end (`.`, `!`, `?` ...) within the limit, or failing that at the last whitespace with
 * `...` added (controller-tools pkg/crd/desc_visitor.go).
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";

export function truncateDescription(text: string, maxLen: number): string {
  if (text.length <= maxLen) return text;
  const head = text.slice(0, maxLen);
  const sentence = lastIndex(head, /\p{Sentence_Terminal}/u);
  if (sentence > 0) return head.slice(0, sentence + 1);
  const space = lastIndex(head, /\s/u);
  return `${space > 0 ? head.slice(0, space) : head}...`;
}

function lastIndex(text: string, re: RegExp): number {
  for (let i = text.length - 1; i >= 0; i--) if (re.test(text[i]!)) return i;
  return -1;
}

/** Applies the limit to a schema and everything nested in it, in place. */
export function limitDescriptions(schema: JSONSchemaProps, maxLen: number): void {
  if (schema.description !== undefined) {
    if (maxLen === 0) delete schema.description;
    else schema.description = truncateDescription(schema.description, maxLen);
  }
  if (schema.items) limitDescriptions(schema.items, maxLen);
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    limitDescriptions(schema.additionalProperties, maxLen);
  }
  for (const p of Object.values(schema.properties ?? {})) limitDescriptions(p, maxLen);
  for (const list of [schema.allOf, schema.anyOf, schema.oneOf])
    for (const s of list ?? []) limitDescriptions(s, maxLen);
}
