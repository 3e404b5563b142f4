import type { V1JobTemplateSpec, V1ObjectReference } from "@kubernetes/client-node";
import type { int32, int64, ObjectMeta, Time } from "@opgen/runtime";

/** CronJobSpec defines the desired state of CronJob */
export interface CronJobSpec {
  /** When to run, as a cron expression. */
  schedule: string;
  /** How late, in seconds, a missed run may still start; later runs count as failed. */
  startingDeadlineSeconds?: int64;
  /** What to do when a run is due while the previous one still runs. */
  concurrencyPolicy?: "Allow" | "Forbid" | "Replace";
  /** Stops future runs (running jobs continue). */
  suspend?: boolean;
  /** The Job each run creates. */
  jobTemplate: V1JobTemplateSpec;
  /** How many succeeded jobs to keep. */
  successfulJobsHistoryLimit?: int32;
  /** How many failed jobs to keep. */
  failedJobsHistoryLimit?: int32;
}

/** CronJobStatus defines the observed state of CronJob */
export interface CronJobStatus {
  /** The jobs running now. */
  active?: V1ObjectReference[];
  /** When a job was last scheduled. */
  lastScheduleTime?: Time;
}

/**
 * CronJob is the Schema for the cronjobs API
 * @resource singular=mycronjob
 * @subresource status
 */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronJobSpec;
  status?: CronJobStatus;
}
