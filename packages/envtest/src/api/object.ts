/**
 * The shapes of stored objects (JSON, ObjectMeta, owner references, managed fields) and of a
 * resource's versions, with the small helpers every part reads them with.
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
