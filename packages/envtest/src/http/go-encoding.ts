/**
 * What Go's encoding/json writes for a built-in object that its stored JSON leaves out. A kind's
 * `Status` is a struct, not a pointer, and `omitempty` never omits a struct, so every typed
 * object is served with `"status": {}` at least (a new Job's, a Deployment's before its
 * controller writes); and the items of a typed list are structs whose TypeMeta is empty, so they
 * carry no `kind` or `apiVersion` (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/
 * json.go encodes the typed value; k8s.io/api/*\/types.go declare the fields). Custom resources
 * are unstructured: served as stored.
 */
import { definition, definitionName } from "@opgen/apimachinery/catalog";
import type { KubeObject, ResourceInfo, ResourceVersionInfo } from "../api/types.js";

const statusStructs = new Map<ResourceVersionInfo, boolean>();

/** Whether the version's Go type has a `status` struct field. */
function hasStatusStruct(info: ResourceInfo, version: ResourceVersionInfo): boolean {
  let has = statusStructs.get(version);
  if (has === undefined) {
    const name = definitionName({ group: info.group, version: version.name, kind: info.kind });
    has = Boolean(name && definition(name)?.properties?.status?.$ref);
    statusStructs.set(version, has);
  }
  return has;
}

function withStatus(o: KubeObject, status: boolean): KubeObject {
  return status && o.status === undefined ? { ...o, status: {} } : o;
}

/**
 * `body` (an object of the resource or its list) as kube-apiserver's JSON encoder writes it; the
 * stored objects are shared, so what changes is a copy. Anything else (a Status, a Scale) is
 * returned as given.
 */
export function goEncoded(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  body: KubeObject,
): KubeObject {
  if (info.custom) return body;
  const status = hasStatusStruct(info, version);
  if (body.kind === info.listKind && Array.isArray(body.items)) {
    const items = (body.items as KubeObject[]).map((item) => {
      const { kind: _kind, apiVersion: _apiVersion, ...rest } = item;
      return withStatus(rest as KubeObject, status);
    });
    return { ...body, items };
  }
  return body.kind === info.kind ? withStatus(body, status) : body;
}
