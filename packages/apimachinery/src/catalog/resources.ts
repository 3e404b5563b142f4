/**
 * The built-in REST resources of a Kubernetes minor as discovery describes them: what envtest serves
 * and lists, what kubectl resolves names and short names against, what the runtime's typed kinds
 * and the CLI's RBAC report need (group, version, kind, plural, scope, verbs).
 */
import type { CatalogData } from "./data.js";

/** A subresource (`status`, `scale`, `eviction`, ...) and the kind its requests carry. */
export interface SubresourceDescriptor {
  readonly name: string;
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
  readonly verbs: readonly string[];
}

/** One resource of one group version, as that minor's kube-apiserver serves it. */
export interface ResourceDescriptor {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly subresources: readonly SubresourceDescriptor[];
  /** `ga` versions are served by default; `beta` and `alpha` ones only when enabled. */
  readonly stability: "ga" | "beta" | "alpha";
  /** The group's preferred version (kube's version priority). */
  readonly preferred: boolean;
  /** The OpenAPI definition of the kind, e.g. `io.k8s.api.apps.v1.Deployment`. */
  readonly definition?: string;
  /** The release that deprecated this kind in this version (`1.19` for v1 ComponentStatus). */
  readonly deprecatedIn?: string;
}

interface ResourcesFile {
  resources: ResourceDescriptor[];
}

/** A minor's resources, indexed by kind and by plural on first use. */
export class ResourceIndex {
  readonly all: readonly ResourceDescriptor[];
  readonly #byKind = new Map<string, ResourceDescriptor[]>();
  readonly #byPlural = new Map<string, ResourceDescriptor[]>();

  constructor(data: CatalogData) {
    const file = data.read<ResourcesFile>("resources.json");
    if (!file)
      throw new Error(
        `@opgen/apimachinery: the catalog data (data/${data.minor}/resources.json) is missing`,
      );
    this.all = Object.freeze(file.resources.map((r) => Object.freeze(r)));
    for (const r of this.all) {
      push(this.#byKind, `${r.group}/${r.kind}`, r);
      push(this.#byPlural, `${r.group}/${r.plural}`, r);
    }
  }

  /**
   * The built-in resource of a group with the given kind or plural; without a version, the
   * group's preferred version (or, when the preferred version lacks it, the highest-priority one
   * that has it).
   */
  find(q: ResourceQuery): ResourceDescriptor | undefined {
    const candidates =
      q.kind !== undefined
        ? this.#byKind.get(`${q.group}/${q.kind}`)
        : q.plural !== undefined
          ? this.#byPlural.get(`${q.group}/${q.plural}`)
          : undefined;
    if (!candidates) return undefined;
    if (q.version !== undefined) return candidates.find((r) => r.version === q.version);
    return candidates.find((r) => r.preferred) ?? candidates[0];
  }
}

/** What findResource looks a resource up by. */
export interface ResourceQuery {
  group: string;
  version?: string;
  kind?: string;
  plural?: string;
}

function push(map: Map<string, ResourceDescriptor[]>, key: string, r: ResourceDescriptor): void {
  const list = map.get(key);
  if (list) list.push(r);
  else map.set(key, [r]);
}
