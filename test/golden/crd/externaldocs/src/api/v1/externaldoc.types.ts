import type { ObjectMeta } from "@opgen/runtime";

/**
 * This tests that external documentation from a type is propagated.
 * @externalDocs url="https://example.com/type-docs" description="type-level external docs"
 */
export type TypeWithExternalDoc = string;

/** ExternalDocSpec defines the desired state of ExternalDoc */
export interface ExternalDocSpec {
  /**
   * This tests that external documentation can be attached to a field with url and description.
   * @externalDocs url="https://example.com/docs" description="external docs description"
   */
  fieldWithExternalDoc?: string;
  /**
   * This tests that external documentation can be attached with only url.
   * @externalDocs url="https://example.com/docs"
   */
  fieldWithExternalDocURLOnly?: string;
  typeWithExternalDoc?: TypeWithExternalDoc;
}

/**
 * ExternalDoc is the Schema for the external docs API
 * @resource
 */
export interface ExternalDoc {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ExternalDocSpec;
}
