/**
 * The shapes shared by the server's parts: JSON objects as stored, and the description of one
 * served resource (built-in or from a CRD) that routing, storage, discovery and tables read.
 */

export type JsonObject = Record<string, unknown>;

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

/** The JSON schema subset of apiextensions `JSONSchemaProps`. */
export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  "x-kubernetes-validations"?: ValidationRule[];
  [key: string]: unknown;
}

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

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
  /** Extra field selector labels besides metadata.name/namespace. */
  fieldLabels?: Record<string, (obj: KubeObject) => string | undefined>;
  /** Strategic-merge-patch list keys by dotted path pattern (built-ins). */
  mergeKeys?: Record<string, string>;
  /** The CRD's name (for CRs). */
  crdName?: string;
  /** The CRD is terminating: no new objects. */
  terminating?: boolean;
  /** Create-only review resources answered by the server, never stored. */
  virtual?: boolean;
  /** Objects live in another resource's storage (events.k8s.io events in core events). */
  sharedStorage?: SharedStorage;
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

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function deepClone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a === "object") {
    if (Array.isArray(b)) return false;
    const ao = a as JsonObject;
    const bo = b as JsonObject;
    const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
    const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
    if (ak.length !== bk.length) return false;
    return ak.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
  }
  return false;
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
