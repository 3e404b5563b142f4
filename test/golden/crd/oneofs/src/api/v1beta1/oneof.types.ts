import type { int32, ObjectMeta } from "@opgen/runtime";

/**
 * CustomTypeAlias is a custom alias
 * @validation XValidation rule="self >= 100 && self <= 1000" message="invalid CustomTypeAlias value"
 */
export type CustomTypeAlias = int32;

/**
 * @validation XValidation rule="!(has(self.foo) && has(self.bar))" message="only one of foo|bar may be set"
 * @validation AtMostOneOf=foo;bar
 */
export interface TypeWithOneof {
  foo?: string;
  bar?: string;
}

/** @validation ExactlyOneOf=foo;bar */
export interface TypeWithExactOneof {
  foo?: string;
  bar?: string;
}

/**
 * @validation AtMostOneOf=a;b
 * @validation AtMostOneOf=c;d
 */
export interface TypeWithMultipleOneofs {
  a?: string;
  b?: string;
  c?: string;
  d?: string;
}

/**
 * @validation ExactlyOneOf=a;b
 * @validation ExactlyOneOf=c;d
 */
export interface TypeWithMultipleExactOneofs {
  a?: string;
  b?: string;
  c?: string;
  d?: string;
}

/**
 * @validation AtLeastOneOf=e;f
 * @validation ExactlyOneOf=c;d
 * @validation AtMostOneOf=a;b
 */
export interface TypeWithAllOneOf {
  a?: string;
  b?: string;
  c?: string;
  d?: string;
  e?: string;
  f?: string;
}

/**
 * @validation AtLeastOneOf=a;b
 * @validation AtLeastOneOf=c;d
 */
export interface TypeWithMultipleAtLeastOneOf {
  a?: string;
  b?: string;
  c?: string;
  d?: string;
}

/** @validation AtMostOneOf=foo;bar */
export interface TypeWithOmitZero {
  foo?: string;
  bar?: string;
}

/** @validation AtLeastOneOf=c;d */
export interface TypeWithOmitZeroAtLeastOneOf {
  c?: string;
  d?: string;
}

/** @validation ExactlyOneOf=a;b */
export interface TypeWithOmitZeroExact {
  a?: string;
  b?: string;
}

/** OneofSpec is the spec for the oneofs API. */
export interface OneofSpec {
  firstTypeWithOneof?: TypeWithOneof;
  secondTypeWithOneof?: TypeWithMultipleOneofs;
  firstTypeWithExactOneof?: TypeWithExactOneof;
  secondTypeWithExactOneof?: TypeWithMultipleExactOneofs;
  typeWithAllOneOf?: TypeWithAllOneOf;
  typeWithMultipleAtLeastOneOf?: TypeWithMultipleAtLeastOneOf;
  typeWithOmitZero?: TypeWithOmitZero;
  typeWithOmitZeroAtLeastOneOf?: TypeWithOmitZeroAtLeastOneOf;
  typeWithOmitZeroExact?: TypeWithOmitZeroExact;
  firstCustomTypeAlias?: CustomTypeAlias;
  /** This verifies if the custom type alias XValidation is not duplicated. */
  secondCustomTypeAlias?: CustomTypeAlias;
}

/**
 * Oneof is the Schema for the Oneof API
 * @resource
 */
export interface Oneof {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: OneofSpec;
}
