/** REST paths of resources: `/api/v1/...` for the core group, `/apis/<group>/<version>/...` otherwise. */
import type { Kind } from "../../api/kind.js";

/** The collection or object path of `kind`, optionally scoped to a namespace and subresource. */
export function resourcePath(
  kind: Pick<Kind, "group" | "version" | "plural" | "namespaced" | "kind">,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  let path = kind.group ? `/apis/${kind.group}/${kind.version}` : `/api/${kind.version}`;
  if (kind.namespaced && namespace) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${kind.plural}`;
  if (name !== undefined) {
    if (!name) throw new Error(`${kind.kind}: an object name is required`);
    path += `/${encodeURIComponent(name)}`;
    if (subresource) path += `/${subresource}`;
  }
  return path;
}
