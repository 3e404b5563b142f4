import type { ObjectMeta } from "@opgen/runtime";

export interface InnerStruct {
  foo?: string;
}

export interface OuterStruct {
  /** @structType atomic */
  struct?: InnerStruct;
}

export interface VersionedResourceSpec {
  struct?: OuterStruct;
}

/**
 * @resource
 * @subresource status
 * @storageversion
 */
export interface VersionedResource {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: VersionedResourceSpec;
}
