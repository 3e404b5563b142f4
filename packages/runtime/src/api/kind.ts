/**
 * Kind descriptors: a value that ties a TypeScript object type to its group, version, kind, plural
 * and scope, so the client, cache and controller builder are typed by the descriptor they are given
 * (the role scheme + GVK play in controller-runtime).
 */
import type { KubeObject } from "./types.js";

/** Describes one served resource and carries the TypeScript type of its objects. */
export interface Kind<T extends KubeObject = KubeObject> {
  /** API group; "" for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The lower-case plural resource name used in URLs. */
  readonly plural: string;
  readonly namespaced: boolean;
  /** `group/version`, or `version` for the core group. */
  readonly apiVersion: string;
  /** Phantom field that keeps `T` in the type; never present at runtime. */
  readonly __type?: T;
}

/** What `defineKind` needs; `apiVersion` is derived. */
export interface KindSpec {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

/** Declares a kind descriptor for objects of type `T`. */
export function defineKind<T extends KubeObject>(spec: KindSpec): Kind<T> {
  for (const field of ["version", "kind", "plural"] as const) {
    if (!spec[field]) throw new Error(`defineKind: ${field} must not be empty`);
  }
  if (spec.plural !== spec.plural.toLowerCase()) {
    throw new Error(`defineKind: plural "${spec.plural}" must be lower-case`);
  }
  const kind: Kind<T> = Object.freeze({
    group: spec.group,
    version: spec.version,
    kind: spec.kind,
    plural: spec.plural,
    namespaced: spec.namespaced,
    apiVersion: spec.group ? `${spec.group}/${spec.version}` : spec.version,
  });
  registry.set(`${kind.apiVersion}/${kind.kind}`, kind);
  return kind;
}

/** Every kind declared with defineKind, so objects can be resolved from apiVersion + kind. */
const registry = new Map<string, Kind>();

/** The kind declared for `apiVersion`/`kind`, if any (discovery covers the rest). */
export function lookupKind(apiVersion: string, kind: string): Kind | undefined {
  return registry.get(`${apiVersion}/${kind}`);
}

/** The stable key of a kind, used to index informers and registries: "group/version/Kind". */
export function kindKey(kind: Pick<Kind, "group" | "version" | "kind">): string {
  return `${kind.group}/${kind.version}/${kind.kind}`;
}

/** Splits an apiVersion into group and version ("v1" is the core group). */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
