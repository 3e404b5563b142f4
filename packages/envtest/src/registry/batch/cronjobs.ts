/**
 * CronJobs (`pkg/registry/batch/cronjob`, `pkg/apis/batch/v1/defaults.go`): defaults, the
 * schedule parsed as kube parses it, the job template's pod spec validated, and the columns
 * kubectl prints.
 */
import type { FieldError } from "@opgen/apimachinery/status";
import { defaultPodTemplate } from "../core/pod-defaults.js";
import { doc } from "../printing/describe.js";
import { labelSelector } from "../printing/format.js";
import { age, namedPrinter, templateWide } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validatePodTemplateSpec } from "../workload-validation.js";
import { cronScheduleError } from "./cron-schedule.js";

export const cronJobs: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.concurrencyPolicy === undefined) spec.concurrencyPolicy = "Allow";
    if (spec.suspend === undefined) spec.suspend = false;
    if (spec.successfulJobsHistoryLimit === undefined) spec.successfulJobsHistoryLimit = 3;
    if (spec.failedJobsHistoryLimit === undefined) spec.failedJobsHistoryLimit = 1;
    defaultPodTemplate(ensureObject(ensureObject(spec, "jobTemplate"), "spec"));
  },
  validate(o) {
    const errs: FieldError[] = [];
    const name = o.metadata?.name ?? "";
    // Job names get an 11-character suffix and must stay DNS-1035 labels (63).
    if (name.length > 52)
      errs.push({
        type: "FieldValueInvalid",
        field: "metadata.name",
        value: name,
        detail: "must be no more than 52 characters",
      });
    const spec = objectAt(o.spec);
    const schedule = spec.schedule;
    if (typeof schedule !== "string" || schedule === "") {
      errs.push({ type: "FieldValueRequired", field: "spec.schedule", detail: "" });
    } else if (schedule.includes("TZ")) {
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.schedule",
        value: schedule,
        detail:
          spec.timeZone !== undefined
            ? "cannot use both timeZone field and TZ or CRON_TZ in schedule"
            : "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
      });
    } else {
      const err = cronScheduleError(schedule);
      if (err)
        errs.push({
          type: "FieldValueInvalid",
          field: "spec.schedule",
          value: schedule,
          detail: err,
        });
    }
    const concurrency = spec.concurrencyPolicy;
    if (concurrency !== undefined && !["Allow", "Forbid", "Replace"].includes(String(concurrency)))
      errs.push({
        type: "FieldValueNotSupported",
        field: "spec.concurrencyPolicy",
        value: concurrency,
        detail: 'supported values: "Allow", "Forbid", "Replace"',
      });
    const template = objectAt(objectAt(objectAt(spec.jobTemplate).spec).template);
    errs.push(
      ...validatePodTemplateSpec(template, "spec.jobTemplate.spec.template", [
        "OnFailure",
        "Never",
      ]),
    );
    return errs;
  },
  printer: () =>
    templateWide(
      namedPrinter(
        [
          {
            name: "Schedule",
            type: "string",
            description: doc("api.batch.v1.CronJobSpec", "schedule"),
          },
          {
            name: "Timezone",
            type: "string",
            description: doc("api.batch.v1.CronJobSpec", "timeZone"),
          },
          {
            name: "Suspend",
            type: "boolean",
            description: doc("api.batch.v1.CronJobSpec", "suspend"),
          },
          {
            name: "Active",
            type: "integer",
            description: doc("api.batch.v1.CronJobStatus", "active"),
          },
          {
            name: "Last Schedule",
            type: "string",
            description: doc("api.batch.v1.CronJobStatus", "lastScheduleTime"),
          },
        ],
        (o) => {
          const spec = objectAt(o.spec);
          const status = objectAt(o.status);
          return [
            spec.schedule ?? "",
            spec.timeZone ?? "<none>",
            spec.suspend === true ? "True" : "False",
            Array.isArray(status.active) ? status.active.length : 0,
            typeof status.lastScheduleTime === "string" ? age(status.lastScheduleTime) : "<none>",
          ];
        },
      ),
      {
        selector: doc("api.batch.v1.JobSpec", "selector"),
        template: (o) => objectAt(objectAt(objectAt(o.spec).jobTemplate).spec).template,
        selectorCell: (o) =>
          labelSelector(objectAt(objectAt(objectAt(o.spec).jobTemplate).spec).selector),
      },
    ),
};
