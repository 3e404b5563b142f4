import type { int32, ObjectMeta } from "@opgen/runtime";

/** The desired state of the old CronJob. */
export interface CronJobSpec {
  /**
   * @validation Minimum=-2
   * @validation Maximum=2
   * @validation MultipleOf=2
   */
  int32WithValidations: int32;
  /**
   * Field and type markers both apply to fields.
   * @validation MinLength=4
   */
  twoOfAKindPart0: string;
}

/**
 * CronJob, as v1beta1 had it: not served any more.
 * @resource singular=mycronjob
 * @subresource status
 * @unservedversion
 */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronJobSpec;
}
