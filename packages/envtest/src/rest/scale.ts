/**
 * The scale subresource (`autoscaling/v1` Scale, `apiext: registry/customresource/etcd.go`):
 * built from the version's replicas and selector paths, and written back to the spec replicas
 * path only.
 */

import { formatLabelSelector } from "@opgen/apimachinery/selectors";
import { errors } from "@opgen/apimachinery/status";
import {
  deepClone,
  getPath,
  isObject,
  type JsonObject,
  type KubeObject,
  type ResourceVersionInfo,
} from "../api/types.js";

function setPath(o: KubeObject, path: string, value: unknown): void {
  const parts = path.replace(/^\./, "").split(".");
  let cur: JsonObject = o;
  for (const p of parts.slice(0, -1)) {
    if (!isObject(cur[p])) cur[p] = {};
    cur = cur[p] as JsonObject;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** The Scale of an object (missing paths read as 0; a selector object is formatted). */
export function toScale(version: ResourceVersionInfo, obj: KubeObject): KubeObject {
  const scale = version.scale!;
  const m = obj.metadata ?? {};
  const selector = getPath(obj, scale.labelSelectorPath ?? "");
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: {
      name: m.name,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: Number(getPath(obj, scale.specReplicasPath) ?? 0) },
    status: {
      replicas: Number(getPath(obj, scale.statusReplicasPath) ?? 0),
      ...(selector !== undefined
        ? { selector: typeof selector === "string" ? selector : formatLabelSelector(selector) }
        : {}),
    },
  };
}

/** The object with the Scale's replicas written to its spec path (validated first). */
export function applyScale(
  version: ResourceVersionInfo,
  name: string,
  current: KubeObject,
  scaleObj: KubeObject,
): KubeObject {
  const replicas = ((scaleObj.spec ?? {}) as JsonObject).replicas;
  if (typeof replicas !== "number" || !Number.isInteger(replicas) || replicas < 0) {
    throw errors.invalid("Scale", "autoscaling", name, [
      {
        type: "FieldValueInvalid",
        field: "spec.replicas",
        value: replicas ?? 0,
        detail: "must be greater than or equal to 0",
      },
    ]);
  }
  const next = deepClone(current);
  setPath(next, version.scale!.specReplicasPath, replicas);
  return next;
}
