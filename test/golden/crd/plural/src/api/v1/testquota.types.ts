import type { ObjectMeta } from "@opgen/runtime";

/** @resource path=testquotas */
export interface TestQuota {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  test?: string;
}
