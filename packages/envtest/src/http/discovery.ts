/**
 * API discovery documents: legacy (`/api`, `/apis`, `/apis/<g>`, `/api/v1`, `/apis/<g>/<v>`)
 * and aggregated v2 (`apidiscovery.k8s.io/v2` APIGroupDiscoveryList), in the shapes of
 * kube-apiserver 1.32 and the CRD discovery controller.
 */
import type { Registry } from "../api/registry.js";
import { subresourcesOf } from "../api/subresources.js";
import { groupVersion, type JsonObject, type ResourceInfo } from "../api/types.js";

const fullVerbs = [
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "create",
  "update",
  "watch",
];
const terminatingVerbs = ["delete", "deletecollection", "get", "list", "watch"];

function verbsOf(info: ResourceInfo): string[] {
  if (info.terminating) return terminatingVerbs;
  return info.verbs ?? fullVerbs;
}

export function apiVersions(serverAddress: string): JsonObject {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

function groupEntry(name: string, versions: string[]): JsonObject {
  const vs = versions.map((v) => ({ groupVersion: groupVersion(name, v), version: v }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

export function apiGroupList(registry: Registry): JsonObject {
  return {
    kind: "APIGroupList",
    apiVersion: "v1",
    groups: registry
      .groups()
      .filter((g) => g.name !== "")
      .map((g) => groupEntry(g.name, g.versions)),
  };
}

export function apiGroup(registry: Registry, name: string): JsonObject | undefined {
  const g = registry.groups().find((x) => x.name === name && name !== "");
  return g ? { kind: "APIGroup", apiVersion: "v1", ...groupEntry(g.name, g.versions) } : undefined;
}

export function apiResourceList(
  registry: Registry,
  group: string,
  version: string,
): JsonObject | undefined {
  const entries = registry.resourcesIn(group, version);
  if (entries.length === 0) return undefined;
  const resources: JsonObject[] = [];
  for (const { info, version: v } of entries) {
    resources.push({
      name: info.resource,
      singularName: info.singular,
      namespaced: info.namespaced,
      kind: info.kind,
      verbs: verbsOf(info),
      ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
      ...(info.categories.length ? { categories: info.categories } : {}),
    });
    for (const sub of subresourcesOf(info, v)) {
      resources.push({
        name: `${info.resource}/${sub.name}`,
        singularName: "",
        namespaced: info.namespaced,
        ...(sub.group !== undefined ? { group: sub.group, version: sub.version } : {}),
        kind: sub.kind,
        verbs: [...sub.verbs],
      });
    }
  }
  return {
    kind: "APIResourceList",
    ...(group ? { apiVersion: "v1" } : {}),
    groupVersion: groupVersion(group, version),
    resources,
  };
}

export const aggregatedContentType =
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/** Aggregated discovery for the core group (`legacy`) or every named group. */
export function aggregatedDiscovery(registry: Registry, legacy: boolean): JsonObject {
  const items: JsonObject[] = [];
  for (const g of registry.groups()) {
    if ((g.name === "") !== legacy) continue;
    items.push({
      metadata: { ...(g.name ? { name: g.name } : {}), creationTimestamp: null },
      versions: g.versions.map((version) => ({
        version,
        freshness: "Current",
        resources: registry.resourcesIn(g.name, version).map(({ info, version: v }) => {
          const subs = subresourcesOf(info, v);
          return {
            resource: info.resource,
            responseKind: { group: info.group, version, kind: info.kind },
            scope: info.namespaced ? "Namespaced" : "Cluster",
            singularResource: info.singular,
            verbs: [...verbsOf(info)].sort(),
            ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
            ...(info.categories.length ? { categories: info.categories } : {}),
            ...(subs.length
              ? {
                  subresources: subs.map((s) => ({
                    subresource: s.name,
                    responseKind: {
                      group: s.group ?? info.group,
                      version: s.version ?? version,
                      kind: s.kind,
                    },
                    verbs: s.verbs,
                  })),
                }
              : {}),
          };
        }),
      })),
    });
  }
  return {
    kind: "APIGroupDiscoveryList",
    apiVersion: "apidiscovery.k8s.io/v2",
    metadata: {},
    items,
  };
}
