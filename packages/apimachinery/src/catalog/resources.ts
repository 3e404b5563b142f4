/**
 * The built-in REST resources of Kubernetes 1.32 as discovery describes them: what envtest serves
 * and lists, what kubectl resolves names and short names against, what the runtime's typed kinds
 * and the CLI's RBAC report need (group, version, kind, plural, scope, verbs).
 */
import { readData } from "./data.js";

/** A subresource (`status`, `scale`, `eviction`, ...) and the kind its requests carry. */
export interface SubresourceDescriptor {
  readonly name: string;
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
  readonly verbs: readonly string[];
}

/** One resource of one group version, as kube-apiserver 1.32 serves it. */
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

let all: readonly ResourceDescriptor[] | undefined;
let byKind: Map<string, ResourceDescriptor[]> | undefined;
let byPlural: Map<string, ResourceDescriptor[]> | undefined;

function index(): void {
  const file = readData<ResourcesFile>("resources.json");
  if (!file)
    throw new Error("@opgen/apimachinery: the catalog data (data/resources.json) is missing");
  all = Object.freeze(file.resources.map((r) => Object.freeze(r)));
  byKind = new Map();
  byPlural = new Map();
  for (const r of all) {
    push(byKind, `${r.group}/${r.kind}`, r);
    push(byPlural, `${r.group}/${r.plural}`, r);
  }
}

function push(map: Map<string, ResourceDescriptor[]>, key: string, r: ResourceDescriptor): void {
  const list = map.get(key);
  if (list) list.push(r);
  else map.set(key, [r]);
}

/** Every built-in resource of every group version in the 1.32 API data, preferred versions first. */
export function builtinResources(): readonly ResourceDescriptor[] {
  if (!all) index();
  return all!;
}

/**
 * The built-in resource of a group with the given kind or plural; without a version, the group's
 * preferred version (or, when the preferred version lacks it, the highest-priority one that has it).
 */
export function findResource(q: {
  group: string;
  version?: string;
  kind?: string;
  plural?: string;
}): ResourceDescriptor | undefined {
  if (!all) index();
  const candidates =
    q.kind !== undefined
      ? byKind!.get(`${q.group}/${q.kind}`)
      : q.plural !== undefined
        ? byPlural!.get(`${q.group}/${q.plural}`)
        : undefined;
  if (!candidates) return undefined;
  if (q.version !== undefined) return candidates.find((r) => r.version === q.version);
  return candidates.find((r) => r.preferred) ?? candidates[0];
}

/** The preferred version of a built-in group (`""` for core), or undefined when unknown. */
export function preferredVersion(group: string): string | undefined {
  return builtinResources().find((r) => r.group === group && r.preferred)?.version;
}
