/**
 * The REST mapper: resolves an object's apiVersion + kind to its resource (plural, scope). Kinds
 * declared with `defineKind` (including the built-ins) resolve locally; anything else is looked up
 * once through API discovery and remembered.
 */
import { defineKind, type Kind, lookupKind, parseApiVersion } from "../api/kind.js";
import type { RestClient } from "../internal/rest/http.js";

interface APIResourceList {
  resources?: Array<{ name: string; kind: string; namespaced: boolean }>;
}

export class RestMapper {
  private readonly discovered = new Map<string, Promise<Kind>>();

  constructor(private readonly rest: RestClient) {}

  async kindFor(apiVersion: string | undefined, kind: string | undefined): Promise<Kind> {
    if (!apiVersion || !kind) throw new Error("object has no apiVersion/kind; set both");
    const known = lookupKind(apiVersion, kind);
    if (known) return known;
    const key = `${apiVersion}/${kind}`;
    let found = this.discovered.get(key);
    if (!found) {
      found = this.discover(apiVersion, kind);
      this.discovered.set(key, found);
      // Do not remember failures: the CRD may be installed later.
      found.catch(() => this.discovered.delete(key));
    }
    return found;
  }

  private async discover(apiVersion: string, kind: string): Promise<Kind> {
    const { group, version } = parseApiVersion(apiVersion);
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const list = await this.rest.request<APIResourceList>({ method: "GET", path });
    const res = list.resources?.find((r) => r.kind === kind && !r.name.includes("/"));
    if (!res) throw new Error(`no resource for kind ${kind} in ${apiVersion}`);
    return defineKind({ group, version, kind, plural: res.name, namespaced: res.namespaced });
  }
}
