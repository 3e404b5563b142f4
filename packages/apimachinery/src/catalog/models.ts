/**
 * Which catalog definition a `@kubernetes/client-node` model stands for. client-node names a
 * model after its definition's version and type (`V1PodTemplateSpec` is
 * `io.k8s.api.core.v1.PodTemplateSpec`), and prefixes the API group where two groups share a
 * type name at one version (`CoreV1Event`, `EventsV1Event`, `RbacV1Subject`).
 */
import type { CatalogData } from "./data.js";
import { readDefinition } from "./definitions.js";

const MODEL = /^([A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?)([A-Z][A-Za-z0-9]*)$/;

/** The definition packages of the catalog, e.g. `io.k8s.api.core.v1`. */
export function definitionPackages(data: CatalogData): readonly string[] {
  return data.list("defs").map((f) => f.replace(/\.json$/, ""));
}

/**
 * The definition name of a client-node model (`V1Container` → `io.k8s.api.core.v1.Container`),
 * or undefined when the minor has no such type (a newer one) or the name is ambiguous.
 */
export function definitionOfModel(data: CatalogData, model: string): string | undefined {
  const m = MODEL.exec(model);
  if (!m) return undefined;
  const [, prefix, version, type] = m as unknown as [string, string | undefined, string, string];
  const found = definitionPackages(data).filter((pkg) => {
    const parts = pkg.split(".");
    if (parts.at(-1) !== version.toLowerCase()) return false;
    if (prefix && parts.at(-2) !== prefix.toLowerCase()) return false;
    return readDefinition(data, `${pkg}.${type}`) !== undefined;
  });
  return found.length === 1 ? `${found[0]}.${type}` : undefined;
}
