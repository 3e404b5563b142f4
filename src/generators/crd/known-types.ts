/**
 * Schemas of the types every CRD shares, hard-coded as controller-gen derives them from the Go
 * originals (pkg/crd/known_types.go and the metav1 markers): the @opgen/runtime aliases
 * (int32, int64, Time, MicroTime, Duration, Quantity, IntOrString, ObjectMeta, Condition ...)
 * and the TypeMeta descriptions of `apiVersion` and `kind`.
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import { copyOrigins } from "./provenance.js";

export const API_VERSION_DESCRIPTION = [
  "APIVersion defines the versioned schema of this representation of an object.",
  "Servers should convert recognized schemas to the latest internal value, and",
  "may reject unrecognized values.",
  "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
].join("\n");

export const KIND_DESCRIPTION = [
  "Kind is a string value representing the REST resource this object represents.",
  "Servers may infer this from the endpoint the client submits requests to.",
  "Cannot be updated.",
  "In CamelCase.",
  "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
].join("\n");

const QUANTITY_PATTERN =
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

const CONDITION: JSONSchemaProps = {
  description:
    "Condition contains details for one aspect of the current state of this API Resource.",
  properties: {
    lastTransitionTime: {
      description:
        "lastTransitionTime is the last time the condition transitioned from one status to another.\nThis should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.",
      format: "date-time",
      type: "string",
    },
    message: {
      description:
        "message is a human readable message indicating details about the transition.\nThis may be an empty string.",
      maxLength: 32768,
      type: "string",
    },
    observedGeneration: {
      description:
        "observedGeneration represents the .metadata.generation that the condition was set based upon.\nFor instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date\nwith respect to the current state of the instance.",
      format: "int64",
      minimum: 0,
      type: "integer",
    },
    reason: {
      description:
        "reason contains a programmatic identifier indicating the reason for the condition's last transition.\nProducers of specific condition types may define expected values and meanings for this field,\nand whether the values are considered a guaranteed API.\nThe value should be a CamelCase string.\nThis field may not be empty.",
      maxLength: 1024,
      minLength: 1,
      pattern: "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
      type: "string",
    },
    status: {
      description: "status of the condition, one of True, False, Unknown.",
      enum: ["True", "False", "Unknown"],
      type: "string",
    },
    type: {
      description: "type of condition in CamelCase or in foo.example.com/CamelCase.",
      maxLength: 316,
      pattern:
        "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
      type: "string",
    },
  },
  required: ["lastTransitionTime", "message", "reason", "status", "type"],
  type: "object",
};

/** The @opgen/runtime types the generator knows by name, and their schemas. */
export const RUNTIME_TYPES: Readonly<Record<string, JSONSchemaProps>> = {
  int32: { type: "integer", format: "int32" },
  int64: { type: "integer", format: "int64" },
  Time: { type: "string", format: "date-time" },
  MicroTime: { type: "string", format: "date-time" },
  Duration: { type: "string" },
  Quantity: {
    anyOf: [{ type: "integer" }, { type: "string" }],
    pattern: QUANTITY_PATTERN,
    "x-kubernetes-int-or-string": true,
  },
  IntOrString: {
    anyOf: [{ type: "integer" }, { type: "string" }],
    "x-kubernetes-int-or-string": true,
  },
  ObjectMeta: { type: "object" },
  // A plain string, as controller-gen writes metav1.ConditionStatus (the enum is Condition's own).
  ConditionStatus: { type: "string" },
  Condition: CONDITION,
  RawExtension: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
  JSONValue: { "x-kubernetes-preserve-unknown-fields": true },
};

/** Deep copy of a schema (schemas are plain JSON; a hand-written copy is much cheaper than structuredClone). */
export function cloneSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(cloneSchema) as T;
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const key in schema) out[key] = cloneSchema((schema as Record<string, unknown>)[key]);
  // The copy comes from the same markers (an error in it is said at them).
  copyOrigins(schema, out);
  return out as T;
}
