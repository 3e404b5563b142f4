/**
 * The subresources a served version has, as discovery lists them and routing serves them:
 * status and scale as the version declares them, and the definition's own (`namespaces/finalize`,
 * `serviceaccounts/token`) with the kind and verbs the catalog gives them.
 */
import type { SubresourceDescriptor } from "@opgen/apimachinery/catalog";
import type { ResourceInfo, ResourceVersionInfo } from "./types.js";

export function subresourcesOf(
  info: ResourceInfo,
  v: ResourceVersionInfo,
): SubresourceDescriptor[] {
  const subs: SubresourceDescriptor[] = [];
  const rw = ["get", "patch", "update"];
  if (v.scale)
    subs.push({ name: "scale", group: "autoscaling", version: "v1", kind: "Scale", verbs: rw });
  if (v.status) subs.push({ name: "status", kind: info.kind, verbs: rw });
  const named = Object.keys(info.subresources ?? {});
  if (!info.custom && named.length > 0) {
    const catalog = info.kube.catalog.findResource({
      group: info.group,
      version: v.name,
      plural: info.resource,
    });
    for (const name of named) {
      const d = catalog?.subresources.find((s) => s.name === name);
      if (!d) continue;
      // The catalog keeps OpenAPI's `connect` action; discovery lists the verbs of the methods a
      // connecter serves (exec, attach, portforward: GET and POST; proxy: every method).
      const verbs = d.verbs.includes("connect")
        ? d.name === "proxy"
          ? ["create", "delete", "get", "patch", "update"]
          : ["create", "get"]
        : d.verbs;
      // Discovery names a subresource's group and version only where they differ.
      const same = (d.group ?? info.group) === info.group && (d.version ?? v.name) === v.name;
      subs.push(same ? { name: d.name, kind: d.kind ?? info.kind, verbs } : { ...d, verbs });
    }
  }
  return subs.sort((a, b) => (a.name < b.name ? -1 : 1));
}
