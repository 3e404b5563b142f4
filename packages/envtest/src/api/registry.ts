/**
 * The registry of served resources: built-ins at start, CRD versions while their CRD is
 * established. Routing, discovery, OpenAPI and the garbage collector resolve resources here;
 * `generation` changes whenever the served set does, which refreshes discovery hashes.
 */
import type { KubeVersion } from "@opgen/apimachinery/version";
import type { ResourceInfo, ResourceVersionInfo } from "./types.js";

export function bucketKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

/** The storage bucket of a resource (its own, or the one it shares). */
export function bucketOf(info: ResourceInfo): string {
  return info.sharedStorage?.bucket ?? bucketKey(info.group, info.resource);
}

/** Kube-aware version ordering: GA desc, then beta desc, then alpha desc, then others. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number, string] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0, v];
    const major = Number(m[1]);
    if (!m[2]) return [0, -major, 0, v];
    return [m[2] === "beta" ? 1 : 2, -major, -Number(m[3]), v];
  };
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < 3; i++) {
    if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  }
  return pa[3] < pb[3] ? -1 : pa[3] > pb[3] ? 1 : 0;
}

/** Groups in the order kube-apiserver lists them in discovery. */
const builtinGroupOrder = [
  "",
  "apiregistration.k8s.io",
  "apps",
  "events.k8s.io",
  "authentication.k8s.io",
  "authorization.k8s.io",
  "autoscaling",
  "batch",
  "certificates.k8s.io",
  "networking.k8s.io",
  "policy",
  "rbac.authorization.k8s.io",
  "storage.k8s.io",
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "scheduling.k8s.io",
  "coordination.k8s.io",
  "node.k8s.io",
  "discovery.k8s.io",
  "flowcontrol.apiserver.k8s.io",
];

export class Registry {
  private readonly byBucket = new Map<string, ResourceInfo>();
  /** Bumped on every change of the served set. */
  generation = 1;

  /** The server's Kubernetes version profile: its catalog, `/version` facts and feature gates. */
  constructor(readonly kube: KubeVersion) {}

  /** Serves the built-ins (registry/index.ts resolves them), once, before anything is served. */
  putBuiltins(builtins: readonly ResourceInfo[]): void {
    for (const info of builtins) this.byBucket.set(bucketKey(info.group, info.resource), info);
  }

  /** Adds or replaces a resource (CRDs on establish and update). */
  put(info: ResourceInfo): void {
    this.byBucket.set(bucketKey(info.group, info.resource), info);
    this.generation++;
  }

  remove(group: string, resource: string): void {
    if (this.byBucket.delete(bucketKey(group, resource))) this.generation++;
  }

  get(group: string, resource: string): ResourceInfo | undefined {
    return this.byBucket.get(bucketKey(group, resource));
  }

  /** The resource served at group/version/resource, with its version record. */
  lookup(
    group: string,
    version: string,
    resource: string,
  ): { info: ResourceInfo; version: ResourceVersionInfo } | undefined {
    const info = this.byBucket.get(bucketKey(group, resource));
    const v = info?.versions.find((x) => x.name === version && x.served);
    return info && v ? { info, version: v } : undefined;
  }

  /** Resolves an apiVersion + kind (ownerReferences, RBAC-free lookups). */
  lookupKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    const slash = apiVersion.lastIndexOf("/");
    const group = slash < 0 ? "" : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    for (const info of this.byBucket.values()) {
      if (
        info.group === group &&
        info.kind === kind &&
        info.versions.some((v) => v.name === version)
      ) {
        return info;
      }
    }
    // ownerReferences may name any served version of the group.
    for (const info of this.byBucket.values()) {
      if (info.group === group && info.kind === kind) return info;
    }
    return undefined;
  }

  all(): ResourceInfo[] {
    return [...this.byBucket.values()];
  }

  /** Served groups in discovery order, each with its versions in preference order. */
  groups(): { name: string; versions: string[] }[] {
    const versions = new Map<string, Set<string>>();
    for (const info of this.byBucket.values()) {
      for (const v of info.versions) {
        if (!v.served) continue;
        let set = versions.get(info.group);
        if (!set) {
          set = new Set();
          versions.set(info.group, set);
        }
        set.add(v.name);
      }
    }
    const names = [...versions.keys()].sort((a, b) => {
      const ia = builtinGroupOrder.indexOf(a);
      const ib = builtinGroupOrder.indexOf(b);
      if (ia >= 0 && ib >= 0) return ia - ib;
      if (ia >= 0) return -1;
      if (ib >= 0) return 1;
      return a < b ? -1 : a > b ? 1 : 0;
    });
    return names.map((name) => ({
      name,
      versions: [...(versions.get(name) ?? [])].sort(compareVersions),
    }));
  }

  /** Resources served in one group version, sorted by name. */
  resourcesIn(
    group: string,
    version: string,
  ): { info: ResourceInfo; version: ResourceVersionInfo }[] {
    const out: { info: ResourceInfo; version: ResourceVersionInfo }[] = [];
    for (const info of this.byBucket.values()) {
      if (info.group !== group) continue;
      const v = info.versions.find((x) => x.name === version && x.served);
      if (v) out.push({ info, version: v });
    }
    return out.sort((a, b) => (a.info.resource < b.info.resource ? -1 : 1));
  }
}
