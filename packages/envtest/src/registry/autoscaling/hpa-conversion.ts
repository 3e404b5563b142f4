/**
 * HorizontalPodAutoscaler between autoscaling/v2 (stored) and autoscaling/v1 (`kubectl
 * autoscale`), as `pkg/apis/autoscaling/v1/conversion.go` converts: v1's
 * `targetCPUUtilizationPercentage` and `currentCPUUtilizationPercentage` are v2's CPU
 * utilization metric; what v1 cannot express (other metrics, behavior, conditions) rides in the
 * `autoscaling.alpha.kubernetes.io/*` annotations, so a round trip through v1 loses nothing.
 */
import { deepClone, type JsonObject, type KubeObject } from "../../api/types.js";
import { objectAt } from "../strategy.js";

const A = "autoscaling.alpha.kubernetes.io";
const METRICS = `${A}/metrics`;
const CURRENT = `${A}/current-metrics`;
const CONDITIONS = `${A}/conditions`;
const BEHAVIOR = `${A}/behavior`;

function isCpuUtilization(m: JsonObject): boolean {
  const r = objectAt(m.resource);
  return m.type === "Resource" && r.name === "cpu" && objectAt(r.target).type === "Utilization";
}

function toV1(o: KubeObject): KubeObject {
  const out = deepClone(o);
  out.apiVersion = "autoscaling/v1";
  const spec = objectAt(out.spec);
  const status = objectAt(out.status);
  const annotations: Record<string, string> = { ...(out.metadata?.annotations ?? {}) };
  const metrics = (spec.metrics ?? []) as JsonObject[];
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  const v1spec: JsonObject = { scaleTargetRef: spec.scaleTargetRef };
  if (spec.minReplicas !== undefined) v1spec.minReplicas = spec.minReplicas;
  v1spec.maxReplicas = spec.maxReplicas;
  if (cpu)
    v1spec.targetCPUUtilizationPercentage = objectAt(
      objectAt(cpu.resource).target,
    ).averageUtilization;
  if (others.length) annotations[METRICS] = JSON.stringify(others);
  if (spec.behavior !== undefined) annotations[BEHAVIOR] = JSON.stringify(spec.behavior);
  out.spec = v1spec;
  if (out.status !== undefined) {
    const current = (status.currentMetrics ?? []) as JsonObject[];
    const cpuNow = current.find(
      (m) => m.type === "Resource" && objectAt(m.resource).name === "cpu",
    );
    const v1status: JsonObject = {};
    for (const k of ["observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas"])
      if (status[k] !== undefined) v1status[k] = status[k];
    const util = objectAt(objectAt(cpuNow?.resource).current).averageUtilization;
    if (util !== undefined) v1status.currentCPUUtilizationPercentage = util;
    const otherNow = current.filter((m) => m !== cpuNow);
    if (otherNow.length) annotations[CURRENT] = JSON.stringify(otherNow);
    if (Array.isArray(status.conditions) && status.conditions.length)
      annotations[CONDITIONS] = JSON.stringify(status.conditions);
    out.status = v1status;
  }
  if (Object.keys(annotations).length && out.metadata) out.metadata.annotations = annotations;
  return out;
}

function parse(annotations: Record<string, string>, key: string): unknown {
  const raw = annotations[key];
  delete annotations[key];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function toV2(o: KubeObject): KubeObject {
  const out = deepClone(o);
  out.apiVersion = "autoscaling/v2";
  const spec = objectAt(out.spec);
  const annotations: Record<string, string> = { ...(out.metadata?.annotations ?? {}) };
  const metrics: JsonObject[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === "number")
    metrics.push({
      type: "Resource",
      resource: {
        name: "cpu",
        target: { type: "Utilization", averageUtilization: spec.targetCPUUtilizationPercentage },
      },
    });
  const others = parse(annotations, METRICS);
  if (Array.isArray(others)) metrics.push(...(others as JsonObject[]));
  const v2spec: JsonObject = { scaleTargetRef: spec.scaleTargetRef };
  if (spec.minReplicas !== undefined) v2spec.minReplicas = spec.minReplicas;
  v2spec.maxReplicas = spec.maxReplicas;
  if (metrics.length) v2spec.metrics = metrics;
  const behavior = parse(annotations, BEHAVIOR);
  if (behavior !== undefined) v2spec.behavior = behavior;
  out.spec = v2spec;
  const status = objectAt(out.status);
  const currentOthers = parse(annotations, CURRENT);
  const conditions = parse(annotations, CONDITIONS);
  if (out.status !== undefined) {
    const v2status: JsonObject = {};
    for (const k of ["observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas"])
      if (status[k] !== undefined) v2status[k] = status[k];
    const current: JsonObject[] = [];
    if (typeof status.currentCPUUtilizationPercentage === "number")
      current.push({
        type: "Resource",
        resource: {
          name: "cpu",
          current: { averageUtilization: status.currentCPUUtilizationPercentage },
        },
      });
    if (Array.isArray(currentOthers)) current.push(...(currentOthers as JsonObject[]));
    if (current.length) v2status.currentMetrics = current;
    if (Array.isArray(conditions)) v2status.conditions = conditions;
    out.status = v2status;
  }
  if (out.metadata) {
    if (Object.keys(annotations).length) out.metadata.annotations = annotations;
    else delete out.metadata.annotations;
  }
  return out;
}

/** Converts an HPA to `version` (v1 or v2) from whichever of the two it is in. */
export function convertHorizontalPodAutoscaler(o: KubeObject, version: string): KubeObject {
  const from = String(o.apiVersion ?? "").split("/")[1];
  if (from === version) return o;
  return version === "v1" ? toV1(o) : toV2(o);
}
