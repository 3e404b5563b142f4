import type { ObjectMeta } from "@opgen/runtime";

/**
 * CronJob is the Schema for the cronjobs API
 * @resource
 */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}
