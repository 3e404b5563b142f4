import type { ObjectMeta } from "@opgen/runtime";

/**
 * CronJob, as v1beta2 had it: served, deprecated.
 * @resource singular=mycronjob
 * @subresource status
 * @deprecatedversion warning="use v1 instead, this version causes your data center to catch fire when used on Tuesdays"
 */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}
