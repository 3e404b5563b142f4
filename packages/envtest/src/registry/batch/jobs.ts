/**
 * Jobs (`pkg/registry/batch/job`, `pkg/apis/batch/v1/defaults.go`): defaults, template validation
 * and the columns kubectl prints.
 */
import type { KubeObject } from "../../api/types.js";
import { defaultPodTemplate } from "../core/pod-defaults.js";
import { jobUpdate } from "../immutability.js";
import { doc } from "../printing/describe.js";
import { humanDuration, namedPrinter, templateWide } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validateWorkload } from "../workload-validation.js";

function hasCondition(o: KubeObject, type: string): boolean {
  const conditions = objectAt(o.status).conditions;
  return (
    Array.isArray(conditions) && conditions.some((c) => c?.type === type && c?.status === "True")
  );
}

/** The Status column: the job's terminal or notable condition, else Running. */
function jobStatus(o: KubeObject): string {
  if (hasCondition(o, "Complete")) return "Complete";
  if (hasCondition(o, "Failed")) return "Failed";
  if (o.metadata?.deletionTimestamp) return "Terminating";
  if (hasCondition(o, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
  if (hasCondition(o, "FailureTarget")) return "FailureTarget";
  if (hasCondition(o, "Suspended")) return "Suspended";
  return "Running";
}

function completions(o: KubeObject): string {
  const spec = objectAt(o.spec);
  const succeeded = (objectAt(o.status).succeeded as number | undefined) ?? 0;
  if (typeof spec.completions === "number") return `${succeeded}/${spec.completions}`;
  const parallelism = (spec.parallelism as number | undefined) ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function duration(o: KubeObject): string {
  const status = objectAt(o.status);
  if (typeof status.startTime !== "string") return "";
  const end =
    typeof status.completionTime === "string" ? Date.parse(status.completionTime) : Date.now();
  return humanDuration(end - Date.parse(status.startTime));
}

export const jobs: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.parallelism === undefined) spec.parallelism = 1;
    if (spec.completions === undefined && spec.parallelism !== undefined) spec.completions = 1;
    if (spec.backoffLimit === undefined) spec.backoffLimit = 6;
    if (spec.completionMode === undefined) spec.completionMode = "NonIndexed";
    if (spec.suspend === undefined) spec.suspend = false;
    if (spec.podReplacementPolicy === undefined) spec.podReplacementPolicy = "TerminatingOrFailed";
    // The job controller's selector (generateSelector): the pods of this job by its uid.
    const uid = o.metadata?.uid;
    if (spec.manualSelector !== true && spec.selector === undefined && uid) {
      spec.selector = { matchLabels: { "batch.kubernetes.io/controller-uid": uid } };
      const meta = ensureObject(ensureObject(spec, "template"), "metadata");
      const labels = ensureObject(meta, "labels");
      const name = o.metadata?.name ?? "";
      Object.assign(labels, {
        "batch.kubernetes.io/controller-uid": uid,
        "batch.kubernetes.io/job-name": name,
        "controller-uid": uid,
        "job-name": name,
      });
    }
    defaultPodTemplate(spec);
  },
  validate: (o) => validateWorkload("Job", o),
  validateUpdate: jobUpdate,
  printer: () =>
    templateWide(
      namedPrinter(
        [
          { name: "Status", type: "string", description: "Status of the job." },
          {
            name: "Completions",
            type: "string",
            description: doc("api.batch.v1.JobStatus", "succeeded"),
          },
          { name: "Duration", type: "string", description: "Time required to complete the job." },
        ],
        (o) => [jobStatus(o), completions(o), duration(o)],
      ),
      { selector: doc("api.batch.v1.JobSpec", "selector") },
    ),
};
