/** The batch group (`pkg/registry/batch`): Jobs and CronJobs. */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { labels } from "../field-labels.js";
import { cronJobs } from "./cronjobs.js";
import { jobs } from "./jobs.js";

export const batch: GroupDefinitions = {
  group: "batch",
  resources: (): ResourceDefinition[] => [
    {
      resource: "jobs",
      strategy: jobs,
      generation: true,
      fieldLabels: labels("status.successful"),
    },
    { resource: "cronjobs", strategy: cronJobs, generation: true },
  ],
};
