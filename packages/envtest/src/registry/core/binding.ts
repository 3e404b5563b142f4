/**
 * Binding a pod to a node, as the scheduler does: `POST .../namespaces/<ns>/bindings` or
 * `POST .../pods/<name>/binding` with a Binding whose target names the node. The pod gets
 * `spec.nodeName` and a `PodScheduled=True` condition in one write in storage, as kube's binding
 * storage makes it (no pod admission or validation, managedFields untouched); a pod already
 * bound or being deleted is a Conflict. Answered with kube's Success Status (201).
 */
import { errors } from "@opgen/apimachinery/status";
import { nowTime } from "../../api/meta.js";
import type { Registry } from "../../api/registry.js";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { ObjectRest } from "../../rest/objects.js";
import type { UserInfo } from "../../rest/scope.js";

export function bindPod(
  rest: ObjectRest,
  registry: Registry,
  scope: { namespace?: string; name?: string; user: UserInfo; manager?: string },
  binding: KubeObject,
): { code: number; body: KubeObject } {
  const found = registry.lookup("", "v1", "pods")!;
  const name = scope.name ?? binding.metadata?.name ?? "";
  const target = isObject(binding.target) ? binding.target : {};
  if (!name || typeof target.name !== "string" || target.name === "")
    throw errors.invalid("Binding", "", name, [
      { type: "FieldValueRequired", field: name ? "target.name" : "metadata.name", detail: "" },
    ]);
  const podScope = {
    info: found.info,
    version: found.version,
    namespace: scope.namespace ?? "",
    name,
    query: new URLSearchParams(),
    user: scope.user,
    manager: scope.manager ?? "kube-scheduler",
    warnings: [],
  };
  // kube's binding storage assigns the node in storage (GuaranteedUpdate): no pod admission,
  // no validation, managedFields as they were; a refusal is a Conflict on pods/binding.
  const refuse = (why: string) =>
    errors.conflict({ group: "", resource: "pods/binding" }, name, why);
  rest.storageUpdate(podScope, (pod) => {
    if (pod.metadata?.deletionTimestamp)
      throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
    const spec = (isObject(pod.spec) ? pod.spec : {}) as JsonObject;
    if (typeof spec.nodeName === "string" && spec.nodeName !== "")
      throw refuse(`pod ${name} is already assigned to node "${spec.nodeName}"`);
    spec.nodeName = target.name;
    pod.spec = spec;
    const status = (isObject(pod.status) ? pod.status : {}) as JsonObject;
    const conditions = (Array.isArray(status.conditions) ? status.conditions : []).filter(
      (c) => !(isObject(c) && c.type === "PodScheduled"),
    );
    conditions.push({
      type: "PodScheduled",
      status: "True",
      lastProbeTime: null,
      lastTransitionTime: nowTime(),
    });
    pod.status = { ...status, conditions };
  });
  return {
    code: 201,
    body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 },
  };
}
