/**
 * Field selector labels of built-ins (kube's `GetAttrs`/`SelectableFields` per resource): each
 * label reads the object's field of the same dotted path, unless mapped to another.
 */
import type { KubeObject, ResourceInfo } from "../api/types.js";

export type FieldLabels = NonNullable<ResourceInfo["fieldLabels"]>;

/** Reads the dotted `path` of an object as a selector value (absent and null: no value). */
export function at(path: string): (o: KubeObject) => string | undefined {
  const parts = path.split(".");
  return (o) => {
    let cur: unknown = o;
    for (const p of parts) {
      if (typeof cur !== "object" || cur === null) return undefined;
      cur = (cur as Record<string, unknown>)[p];
    }
    if (cur === undefined || cur === null) return undefined;
    return String(cur);
  };
}

/** Labels named by their paths, each reading its own path. */
export function labels(...paths: string[]): FieldLabels {
  return Object.fromEntries(paths.map((p) => [p, at(p)]));
}
