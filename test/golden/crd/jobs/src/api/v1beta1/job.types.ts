import type { int32, ObjectMeta } from "@opgen/runtime";

/** A type from another package, used by the job: its doc is replaced by the field's. */
export interface CronJobSpec {
  /**
   * @validation Maximum=2
   * @validation Minimum=-2
   * @validation MultipleOf=2
   */
  int32WithValidations: int32;
  /**
   * This tests that markers that are allowed on both fields and types are applied to fields
   * @validation MinLength=4
   */
  twoOfAKindPart0: string;
}

/** JobSpec is the spec for the jobs API. */
export interface JobSpec {
  /**
   * FriendlyName is the friendly name for the job.
   * @validation MinLength=5
   */
  friendlyName: string;
  /**
   * Count is the number of times a job may be executed.
   * @validation Minimum=0
   * @validation Maximum=10
   */
  count: int32;
  /** CronJob is the spec for the related CrongJob. */
  crongJob: CronJobSpec;
}

/**
 * Job is the Schema for the jobs API
 * @resource
 */
export interface Job {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: JobSpec;
}
