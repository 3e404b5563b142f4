import type { ObjectMeta } from "@opgen/runtime";

export interface FooSpec {
  /**
   * This tests that defaulted fields are stripped for v1beta1,
   * but not for v1
   * @default fooDefaultString
   * @example fooExampleString
   */
  defaultedString: string;
}

// biome-ignore lint/complexity/noBannedTypes: an empty status object, as the upstream Go type is
export type FooStatus = {};

/** @resource */
export interface Foo {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  /** Spec comments SHOULD appear in the CRD spec */
  spec?: FooSpec;
  /** Status comments SHOULD appear in the CRD spec */
  status?: FooStatus;
}
