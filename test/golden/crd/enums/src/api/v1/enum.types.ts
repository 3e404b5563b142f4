import type { ObjectMeta } from "@opgen/runtime";

// A string-literal union is an enum (values in source order). No JSDoc, so no description.
export type EnumType = "Value1" | "Value2";

/** EnumSpec defines the desired state of Enum */
export interface EnumSpec {
  field?: EnumType;
}

/**
 * Enum is a test CRD that contains an enum.
 * @resource
 */
export interface Enum {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: EnumSpec;
}
