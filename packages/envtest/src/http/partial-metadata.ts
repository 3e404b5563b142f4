/**
 * The metadata-only media type (`application/json;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1`)
 * that client-go's metadata client, and so the garbage collector, namespace controller and
 * controller-runtime's metadata-only watches, ask for: objects reduced to their ObjectMeta.
 */
import type { KubeObject } from "../api/types.js";

/** Whether the client's preferred media type is PartialObjectMetadata(List). */
export function wantsPartialMetadata(accept: string | undefined): boolean {
  if (!accept) return false;
  const params = new Set(accept.split(",")[0]!.replace(/\s/g, "").split(";").slice(1));
  return (
    params.has("g=meta.k8s.io") &&
    (params.has("as=PartialObjectMetadata") || params.has("as=PartialObjectMetadataList"))
  );
}

export function partialObjectMetadata(o: KubeObject): KubeObject {
  return {
    kind: "PartialObjectMetadata",
    apiVersion: "meta.k8s.io/v1",
    metadata: o.metadata ?? {},
  };
}

/** Converts an object or a list (Status bodies pass through). */
export function toPartialMetadata(body: KubeObject): KubeObject {
  if (body.kind === "Status") return body;
  if (Array.isArray(body.items)) {
    return {
      kind: "PartialObjectMetadataList",
      apiVersion: "meta.k8s.io/v1",
      metadata: body.metadata ?? {},
      items: (body.items as KubeObject[]).map(partialObjectMetadata),
    };
  }
  return partialObjectMetadata(body);
}
