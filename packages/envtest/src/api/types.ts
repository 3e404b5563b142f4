/**
 * The shapes shared by the server's parts: JSON objects as stored, and the description of one
 * served resource (built-in or from a CRD) that routing, storage, discovery and tables read.
 */
import { isObject, type JSONSchemaProps, type JsonObject } from "@opgen/apimachinery/schema";

// JSON helpers live with the schema algorithms that need them; envtest's modules read them here.
export { deepClone, deepEqual, isObject, type JsonObject } from "@opgen/apimachinery/schema";

/** Narrows an unknown field to an object, replacing anything else with `{}`. */
export function objectAt(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: "Apply" | "Update";
  apiVersion?: string;
  time?: string;
  fieldsType?: "FieldsV1";
  fieldsV1?: JsonObject;
  subresource?: string;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [key: string]: unknown;
}

/** A CRD-style printer column. */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** CRD schemas are apiextensions v1 `JSONSchemaProps` (one definition, in @opgen/apimachinery). */
export type Schema = JSONSchemaProps;

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** Per-version behaviour of a resource. */
export interface ResourceVersionInfo {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: Schema;
  printerColumns?: PrinterColumn[];
  status: boolean;
  scale?: ScaleSubresource;
}

/** Everything the server knows about one resource (group + plural), across its versions. */
export interface ResourceInfo {
  group: string;
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Served versions, preferred first. */
  versions: ResourceVersionInfo[];
  /** Custom resources come from a CRD; they reject strategic merge patch. */
  custom: boolean;
  /** Maintains metadata.generation (CRs and spec'd built-ins). */
  generation: boolean;
  /** PUT without resourceVersion allowed (ConfigMap, Secret, Lease, …). */
  unconditionalUpdate: boolean;
  /** DELETE answers with the deleted object instead of a Success Status. */
  returnDeletedObject: boolean;
  /** Discovery verbs (built-ins, from the catalog); CRDs serve the full set. */
  verbs?: string[];
  /** Extra field selector labels besides metadata.name/namespace. */
  fieldLabels?: Record<string, (obj: KubeObject) => string | undefined>;
  /** The CRD's name (for CRs). */
  crdName?: string;
  /** The CRD is terminating: no new objects. */
  terminating?: boolean;
  /** Create-only review resources answered by the server, never stored. */
  virtual?: boolean;
  /** Converts a built-in between its served versions (an HPA's autoscaling/v1 and v2). */
  convert?: (o: KubeObject, version: string) => KubeObject;
  /** Objects live in another resource's storage (events.k8s.io events in core events). */
  sharedStorage?: SharedStorage;
  /** A CRD's `spec.conversion.webhook` when its strategy is Webhook. */
  conversionWebhook?: ConversionWebhook;
}

/** Where a CRD's conversion webhook is and which ConversionReview versions it speaks. */
export interface ConversionWebhook {
  clientConfig: WebhookClientConfig;
  conversionReviewVersions: string[];
}

/** admissionregistration/apiextensions `WebhookClientConfig`. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 PEM. */
  caBundle?: string;
}

/** Converts between a resource's API form and the form stored by the resource it shares. */
export interface SharedStorage {
  bucket: string;
  apiVersion: string;
  toStorage(o: KubeObject): KubeObject;
  fromStorage(o: KubeObject): KubeObject;
}

export function storageVersion(info: ResourceInfo): ResourceVersionInfo {
  return info.versions.find((v) => v.storage) ?? info.versions[0]!;
}

export function groupVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Reads a `.a.b` JSON path (scale paths, selectable fields). */
export function getPath(o: unknown, path: string): unknown {
  if (!path) return undefined;
  let cur = o;
  for (const p of path.replace(/^\./, "").split(".")) {
    if (!isObject(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}
