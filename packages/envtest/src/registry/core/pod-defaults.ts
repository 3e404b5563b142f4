/** SetDefaults_PodSpec and its containers (`pkg/apis/core/v1/defaults.go`): shared by pods and every workload template. */
import { isObject, type JsonObject } from "../../api/types.js";
import { ensureObject } from "../strategy.js";

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
  // SetDefaults_EphemeralContainer defaults an ephemeral container as a container.
  for (const key of ["containers", "initContainers", "ephemeralContainers"]) {
    for (const c of (spec[key] as JsonObject[] | undefined) ?? [])
      if (isObject(c)) defaultContainer(c);
  }
  if (spec.serviceAccountName !== undefined && spec.serviceAccount === undefined) {
    spec.serviceAccount = spec.serviceAccountName;
  }
}

/** Defaults a workload's `spec.template` (its metadata and pod spec). */
export function defaultPodTemplate(spec: JsonObject): void {
  const template = ensureObject(spec, "template");
  defaultPodSpec(ensureObject(template, "spec"));
  if (template.metadata === undefined) template.metadata = {};
}
