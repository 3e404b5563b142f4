/**
 * Marker-facing type aliases: the names the CRD generator maps to OpenAPI formats, mirroring the Go
 * types a kubebuilder API uses (int32, metav1.Time, resource.Quantity, intstr.IntOrString, ...).
 * At runtime they are plain JSON values; the alias name carries the schema meaning.
 */
import type { KubernetesObject, V1ObjectMeta } from "@kubernetes/client-node";
import type { JSONValue } from "@opgen/apimachinery/schema";

/** A 32-bit integer (`type: integer, format: int32`). */
export type int32 = number;
/** A 64-bit integer (`type: integer, format: int64`); JSON numbers lose precision past 2^53. */
export type int64 = number;
/** metav1.Time: an RFC 3339 timestamp with second precision (`format: date-time`). */
export type Time = string;
/** metav1.MicroTime: an RFC 3339 timestamp with microsecond precision (`format: date-time`). */
export type MicroTime = string;
/** metav1.Duration: a Go duration string such as "1h30m" (`type: string`). */
export type Duration = string;
/** resource.Quantity: "500m", "1Gi" or a bare number (`x-kubernetes-int-or-string`). */
export type Quantity = string | number;
/** intstr.IntOrString: an integer or a string such as "25%" (`x-kubernetes-int-or-string`). */
export type IntOrString = string | number;
/**
 * apiextensions.JSON: any JSON value, kept as written (`x-kubernetes-preserve-unknown-fields`),
 * for a field whose shape the API leaves open. The one JSONValue type, from @opgen/apimachinery.
 */
export type { JSONValue } from "@opgen/apimachinery/schema";
/**
 * runtime.RawExtension: an embedded object of any kind, e.g. a template the operator creates
 * (`type: object` with unknown fields preserved).
 */
export type RawExtension = { [key: string]: JSONValue };
/** metav1.ObjectMeta, as the client-node model types it. */
export type ObjectMeta = V1ObjectMeta;

/**
 * The status of a condition: metav1.ConditionStatus. Its schema is a plain string, as
 * controller-gen writes metav1.ConditionStatus; only Condition's own `status` has the enum.
 */
export type ConditionStatus = "True" | "False" | "Unknown";

/** metav1.Condition: one aspect of an object's current state. */
export interface Condition {
  /** The condition type in CamelCase, e.g. "Available". */
  type: string;
  status: ConditionStatus;
  /** The `.metadata.generation` the condition was set for. */
  observedGeneration?: int64;
  /** When the status last changed (not when the condition was last written). */
  lastTransitionTime: Time;
  /** A CamelCase programmatic reason for the last transition. */
  reason: string;
  /** A human-readable message; may be empty. */
  message: string;
}

/** Any Kubernetes object: apiVersion, kind and metadata, everything else free. */
export interface KubeObject extends KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/**
 * metav1.PartialObjectMetadata: an object reduced to its metadata, as metadata-only watches and
 * reads return it (apiVersion and kind are those of the full object).
 */
export interface PartialObjectMetadata {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** The `{ namespace, name }` pair that identifies an object (types.NamespacedName). */
export interface NamespacedName {
  /** Empty or absent for cluster-scoped objects. */
  namespace?: string;
  name: string;
}
