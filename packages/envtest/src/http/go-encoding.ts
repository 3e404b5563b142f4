/**
 * What Go's encoding/json writes for a built-in object that its stored JSON leaves out. A kind's
 * `Status` is a struct, not a pointer, and `omitempty` never omits a struct, so every typed
 * object is served with `"status": {}` at least (a new Job's, a Deployment's before its
 * controller writes), holding the status fields without `omitempty` at their zero (a new
 * StatefulSet's `replicas: 0`, which the Python client requires); and the items of a typed list
 * are structs whose TypeMeta is empty, so they carry no `kind` or `apiVersion`
 * (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go encodes the typed value;
 * k8s.io/api/*\/types.go declare the fields). Custom resources are unstructured: served as
 * stored.
 */
import { ssa } from "@opgen/apimachinery/merge";
import {
  isObject,
  type JsonObject,
  type KubeObject,
  type ResourceInfo,
  type ResourceVersionInfo,
} from "../api/types.js";

// Per served version record, so each server (and minor) has its own; gone with the server.
const statusZeros = new WeakMap<ResourceVersionInfo, JsonObject | null>();

/**
 * The Go zero of the version's `status` struct as encoding/json writes it (its fields without
 * `omitempty` present: a StatefulSet's `replicas: 0`), or null for a kind without one.
 */
function statusZero(info: ResourceInfo, version: ResourceVersionInfo): JsonObject | null {
  let zero = statusZeros.get(version);
  if (zero === undefined) {
    const catalog = info.kube.catalog;
    const name = catalog.definitionName({
      group: info.group,
      version: version.name,
      kind: info.kind,
    });
    const status = name ? ssa.definitionZero(catalog, name)?.status : undefined;
    zero = isObject(status) ? status : null;
    statusZeros.set(version, zero);
  }
  return zero;
}

function withStatus(o: KubeObject, zero: JsonObject | null): KubeObject {
  if (!zero) return o;
  if (o.status === undefined) return { ...o, status: { ...zero } };
  if (!isObject(o.status)) return o;
  const status = o.status;
  for (const k in zero)
    if (status[k] === undefined) return { ...o, status: { ...zero, ...status } };
  return o;
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
  const status = statusZero(info, version);
  if (body.kind === info.listKind && Array.isArray(body.items)) {
    const items = (body.items as KubeObject[]).map((item) => {
      const { kind: _kind, apiVersion: _apiVersion, ...rest } = item;
      return withStatus(rest as KubeObject, status);
    });
    return { ...body, items };
  }
  return body.kind === info.kind ? withStatus(body, status) : body;
}
