/**
 * Per-kind behaviour of built-in resources that clients observe: server-side defaults
 * (the `defaults.go` of each API group), the validations operators trip over (Lease, Event, Namespace,
 * Secret) and the names each kind accepts.
 */
import type { FieldError } from "@opgen/apimachinery/status";
import { type NameRule, normalizeMicroTime, qualifiedNameErrors } from "../api/meta.js";
import { isObject, type JsonObject, type KubeObject, type ResourceInfo } from "../api/types.js";
import {
  validateConfigKeys,
  validatePodSpec,
  validateService,
  validateWorkload,
} from "./workload-validation.js";

/** How a kind's metadata.name is validated. */
export function nameRuleFor(info: ResourceInfo): NameRule {
  if (info.custom) return "subdomain";
  if (info.group === "" && (info.resource === "namespaces" || info.resource === "services")) {
    return "label";
  }
  if (info.group === "rbac.authorization.k8s.io") return "path";
  return "subdomain";
}

function obj(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

function defaultContainer(c: JsonObject): void {
  if (c.terminationMessagePath === undefined) c.terminationMessagePath = "/dev/termination-log";
  if (c.terminationMessagePolicy === undefined) c.terminationMessagePolicy = "File";
  if (c.imagePullPolicy === undefined && typeof c.image === "string") {
    const image = c.image;
    const tag = image.includes("@") ? "digest" : (/:([^/:]+)$/.exec(image)?.[1] ?? "latest");
    c.imagePullPolicy = tag === "latest" ? "Always" : "IfNotPresent";
  }
  if (c.resources === undefined) c.resources = {};
  for (const p of (c.ports as JsonObject[] | undefined) ?? []) {
    if (isObject(p) && p.protocol === undefined) p.protocol = "TCP";
  }
}

/** SetDefaults_PodSpec (the fields every client sees). */
export function defaultPodSpec(spec: JsonObject): void {
  if (spec.restartPolicy === undefined) spec.restartPolicy = "Always";
  if (spec.dnsPolicy === undefined) spec.dnsPolicy = "ClusterFirst";
  if (spec.terminationGracePeriodSeconds === undefined) spec.terminationGracePeriodSeconds = 30;
  if (spec.schedulerName === undefined) spec.schedulerName = "default-scheduler";
  if (spec.securityContext === undefined) spec.securityContext = {};
  for (const key of ["containers", "initContainers"]) {
    for (const c of (spec[key] as JsonObject[] | undefined) ?? [])
      if (isObject(c)) defaultContainer(c);
  }
  if (spec.serviceAccountName !== undefined && spec.serviceAccount === undefined) {
    spec.serviceAccount = spec.serviceAccountName;
  }
}

function defaultTemplate(spec: JsonObject): void {
  const template = obj(spec.template);
  spec.template = template;
  template.spec = obj(template.spec);
  defaultPodSpec(template.spec as JsonObject);
  if (template.metadata === undefined) template.metadata = {};
}

/** Applies the defaults kube-apiserver gives built-in objects on every write. */
export function defaultBuiltin(info: ResourceInfo, o: KubeObject): void {
  const key = `${info.group}/${info.resource}`;
  switch (key) {
    case "/namespaces": {
      const meta = o.metadata ?? {};
      meta.labels = { ...(meta.labels ?? {}), "kubernetes.io/metadata.name": meta.name ?? "" };
      o.metadata = meta;
      const spec = obj(o.spec);
      if (spec.finalizers === undefined) spec.finalizers = ["kubernetes"];
      o.spec = spec;
      const status = obj(o.status);
      if (status.phase === undefined) status.phase = "Active";
      o.status = status;
      break;
    }
    case "/secrets": {
      if (o.type === undefined) o.type = "Opaque";
      if (isObject(o.stringData)) {
        const data = obj(o.data);
        for (const [k, v] of Object.entries(o.stringData)) {
          data[k] = Buffer.from(String(v)).toString("base64");
        }
        o.data = data;
        delete o.stringData;
      }
      break;
    }
    case "/pods": {
      const spec = obj(o.spec);
      o.spec = spec;
      defaultPodSpec(spec);
      if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
      if (spec.priority === undefined) spec.priority = 0;
      if (spec.preemptionPolicy === undefined) spec.preemptionPolicy = "PreemptLowerPriority";
      if (spec.tolerations === undefined) {
        spec.tolerations = [
          {
            key: "node.kubernetes.io/not-ready",
            operator: "Exists",
            effect: "NoExecute",
            tolerationSeconds: 300,
          },
          {
            key: "node.kubernetes.io/unreachable",
            operator: "Exists",
            effect: "NoExecute",
            tolerationSeconds: 300,
          },
        ];
      }
      const status = obj(o.status);
      if (status.phase === undefined) status.phase = "Pending";
      if (status.qosClass === undefined) status.qosClass = "BestEffort";
      o.status = status;
      break;
    }
    case "/services": {
      const spec = obj(o.spec);
      o.spec = spec;
      if (spec.type === undefined) spec.type = "ClusterIP";
      if (spec.sessionAffinity === undefined) spec.sessionAffinity = "None";
      if (spec.internalTrafficPolicy === undefined && spec.type !== "ExternalName") {
        spec.internalTrafficPolicy = "Cluster";
      }
      for (const p of (spec.ports as JsonObject[] | undefined) ?? []) {
        if (!isObject(p)) continue;
        if (p.protocol === undefined) p.protocol = "TCP";
        if (p.targetPort === undefined) p.targetPort = p.port;
      }
      if (spec.type !== "ExternalName") {
        if (spec.ipFamilies === undefined) spec.ipFamilies = ["IPv4"];
        if (spec.ipFamilyPolicy === undefined) spec.ipFamilyPolicy = "SingleStack";
      }
      if (o.status === undefined) o.status = { loadBalancer: {} };
      break;
    }
    case "apps/deployments": {
      const spec = obj(o.spec);
      o.spec = spec;
      if (spec.replicas === undefined) spec.replicas = 1;
      if (spec.revisionHistoryLimit === undefined) spec.revisionHistoryLimit = 10;
      if (spec.progressDeadlineSeconds === undefined) spec.progressDeadlineSeconds = 600;
      const strategy = obj(spec.strategy);
      spec.strategy = strategy;
      if (strategy.type === undefined) strategy.type = "RollingUpdate";
      if (strategy.type === "RollingUpdate") {
        const ru = obj(strategy.rollingUpdate);
        strategy.rollingUpdate = ru;
        if (ru.maxUnavailable === undefined) ru.maxUnavailable = "25%";
        if (ru.maxSurge === undefined) ru.maxSurge = "25%";
      }
      defaultTemplate(spec);
      break;
    }
    case "apps/replicasets": {
      const spec = obj(o.spec);
      o.spec = spec;
      if (spec.replicas === undefined) spec.replicas = 1;
      defaultTemplate(spec);
      break;
    }
    case "apps/statefulsets": {
      const spec = obj(o.spec);
      o.spec = spec;
      if (spec.replicas === undefined) spec.replicas = 1;
      if (spec.podManagementPolicy === undefined) spec.podManagementPolicy = "OrderedReady";
      if (spec.revisionHistoryLimit === undefined) spec.revisionHistoryLimit = 10;
      if (spec.updateStrategy === undefined) {
        spec.updateStrategy = { type: "RollingUpdate", rollingUpdate: { partition: 0 } };
      }
      if (spec.persistentVolumeClaimRetentionPolicy === undefined) {
        spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: "Retain", whenScaled: "Retain" };
      }
      defaultTemplate(spec);
      break;
    }
    case "apps/daemonsets": {
      const spec = obj(o.spec);
      o.spec = spec;
      if (spec.revisionHistoryLimit === undefined) spec.revisionHistoryLimit = 10;
      if (spec.updateStrategy === undefined) {
        spec.updateStrategy = {
          type: "RollingUpdate",
          rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
        };
      }
      defaultTemplate(spec);
      break;
    }
    case "batch/jobs": {
      const spec = obj(o.spec);
      o.spec = spec;
      if (spec.parallelism === undefined) spec.parallelism = 1;
      if (spec.completions === undefined && spec.parallelism !== undefined) spec.completions = 1;
      if (spec.backoffLimit === undefined) spec.backoffLimit = 6;
      if (spec.completionMode === undefined) spec.completionMode = "NonIndexed";
      if (spec.suspend === undefined) spec.suspend = false;
      if (spec.podReplacementPolicy === undefined)
        spec.podReplacementPolicy = "TerminatingOrFailed";
      defaultTemplate(spec);
      break;
    }
    case "coordination.k8s.io/leases":
    case "events.k8s.io/events":
    case "/events": {
      for (const [container, keys] of [
        [o.spec, ["acquireTime", "renewTime"]],
        [o, ["eventTime"]],
        [obj(o.series), ["lastObservedTime"]],
      ] as const) {
        if (!isObject(container)) continue;
        for (const k of keys)
          if (container[k] !== undefined && container[k] !== null) {
            container[k] = normalizeMicroTime(container[k]);
          }
      }
      break;
    }
  }
}

/** Kind-specific validation of built-ins (beyond ObjectMeta). */
export function validateBuiltin(info: ResourceInfo, o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const key = `${info.group}/${info.resource}`;
  if (key === "coordination.k8s.io/leases") {
    const spec = obj(o.spec);
    if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds !== null) {
      if (typeof spec.leaseDurationSeconds !== "number" || spec.leaseDurationSeconds <= 0) {
        errs.push({
          type: "FieldValueInvalid",
          field: "spec.leaseDurationSeconds",
          value: spec.leaseDurationSeconds,
          detail: "must be greater than 0",
        });
      }
    }
    if (typeof spec.leaseTransitions === "number" && spec.leaseTransitions < 0) {
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.leaseTransitions",
        value: spec.leaseTransitions,
        detail: "must be greater than or equal to 0",
      });
    }
    if (spec.preferredHolder && !spec.strategy) {
      errs.push({
        type: "FieldValueForbidden",
        field: "spec.preferredHolder",
        detail: "preferredHolder is only allowed if strategy is set",
      });
    }
  }
  if (key === "/events") errs.push(...validateCoreEvent(o));
  const workloadKinds: Record<string, string> = {
    "apps/deployments": "Deployment",
    "apps/replicasets": "ReplicaSet",
    "apps/statefulsets": "StatefulSet",
    "apps/daemonsets": "DaemonSet",
    "batch/jobs": "Job",
  };
  if (workloadKinds[key]) errs.push(...validateWorkload(workloadKinds[key]!, o));
  if (key === "/pods") errs.push(...validatePodSpec(o.spec, "spec"));
  if (key === "/services") errs.push(...validateService(o));
  if (key === "/configmaps") errs.push(...validateConfigKeys(o, ["data", "binaryData"]));
  if (key === "/secrets") errs.push(...validateConfigKeys(o, ["data"]));
  if (key === "events.k8s.io/events") {
    if (!o.eventTime) errs.push({ type: "FieldValueRequired", field: "eventTime", detail: "" });
    if (o.type !== "Normal" && o.type !== "Warning") {
      errs.push({
        type: "FieldValueInvalid",
        field: "type",
        value: o.type ?? "",
        detail: `has invalid value: ${String(o.type ?? "")}`,
      });
    }
    for (const f of ["reportingController", "reportingInstance", "action", "reason"]) {
      if (!o[f]) errs.push({ type: "FieldValueRequired", field: f, detail: "" });
    }
  }
  return errs;
}

/** legacyValidateEvent (`pkg/apis/core/validation/events.go`) as applied to core/v1 writes. */
function validateCoreEvent(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const involvedNs = String(obj(o.involvedObject).namespace ?? "");
  const ns = o.metadata?.namespace ?? "";
  const mismatch = (): FieldError => ({
    type: "FieldValueInvalid",
    field: "involvedObject.namespace",
    value: involvedNs,
    detail: "does not match event.namespace",
  });
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  if (!o.eventTime) {
    // Old-style events: the namespaces must agree (cluster-scoped objects: "" or "default").
    if (involvedNs === "" ? ns !== "" && ns !== "default" : ns !== involvedNs)
      errs.push(mismatch());
    return errs;
  }
  if (involvedNs === "" && ns !== "default" && ns !== "kube-system") errs.push(mismatch());
  const controller = str(o.reportingComponent);
  if (!controller)
    errs.push({ type: "FieldValueRequired", field: "reportingComponent", detail: "" });
  else {
    for (const m of qualifiedNameErrors(controller)) {
      errs.push({
        type: "FieldValueInvalid",
        field: "reportingComponent",
        value: controller,
        detail: m,
      });
    }
  }
  const limited: [string, unknown, number][] = [
    ["reportingInstance", o.reportingInstance, 128],
    ["action", o.action, 128],
    ["reason", o.reason, 128],
  ];
  for (const [field, value, limit] of limited) {
    const v = str(value);
    if (!v) errs.push({ type: "FieldValueRequired", field, detail: "" });
    else if (v.length > limit) {
      errs.push({
        type: "FieldValueInvalid",
        field,
        value: "",
        detail: `can have at most ${limit} characters`,
      });
    }
  }
  if (str(o.message).length > 1024) {
    errs.push({
      type: "FieldValueInvalid",
      field: "message",
      value: "",
      detail: "can have at most 1024 characters",
    });
  }
  return errs;
}
