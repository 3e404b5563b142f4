/**
 * The apps group's workloads (`pkg/registry/apps/*`, `pkg/apis/apps/v1/defaults.go`): Deployments,
 * ReplicaSets, StatefulSets and DaemonSets with their defaults, selector/template validation and
 * the columns kubectl prints.
 */
import type { KubeObject } from "../../api/types.js";
import { defaultPodTemplate } from "../core/pod-defaults.js";
import { immutableSelector, statefulSetUpdate } from "../immutability.js";
import { doc } from "../printing/describe.js";
import { labelSet } from "../printing/format.js";
import { namedPrinter, templateWide } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validateWorkload } from "../workload-validation.js";

const st = (o: KubeObject) => objectAt(o.status);
const sp = (o: KubeObject) => objectAt(o.spec);
const readyOfDesired = (o: KubeObject) => `${st(o).readyReplicas ?? 0}/${sp(o).replicas ?? 0}`;
const readyColumn = {
  name: "Ready",
  type: "string",
  description: "Number of the pod with ready state",
};

export const deployments: ResourceStrategy = {
  // deploymentStatusStrategy also keeps the labels (GetResetFields: spec, metadata.labels).
  resetFields: (sub) => (sub === "status" ? [["spec"], ["metadata", "labels"]] : undefined),
  nameRule: "subdomain",
  statusMetadata: ["annotations"],
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.replicas === undefined) spec.replicas = 1;
    if (spec.revisionHistoryLimit === undefined) spec.revisionHistoryLimit = 10;
    if (spec.progressDeadlineSeconds === undefined) spec.progressDeadlineSeconds = 600;
    const strategy = ensureObject(spec, "strategy");
    if (strategy.type === undefined) strategy.type = "RollingUpdate";
    if (strategy.type === "RollingUpdate") {
      const ru = ensureObject(strategy, "rollingUpdate");
      if (ru.maxUnavailable === undefined) ru.maxUnavailable = "25%";
      if (ru.maxSurge === undefined) ru.maxSurge = "25%";
    }
    defaultPodTemplate(spec);
  },
  validate: (o) => validateWorkload("Deployment", o),
  validateUpdate: immutableSelector,
  printer: () =>
    templateWide(
      namedPrinter(
        [
          readyColumn,
          {
            name: "Up-to-date",
            type: "string",
            description: doc("api.apps.v1.DeploymentStatus", "updatedReplicas"),
          },
          {
            name: "Available",
            type: "string",
            description: doc("api.apps.v1.DeploymentStatus", "availableReplicas"),
          },
        ],
        (o) => [readyOfDesired(o), st(o).updatedReplicas ?? 0, st(o).availableReplicas ?? 0],
      ),
      { selector: doc("api.apps.v1.DeploymentSpec", "selector") },
    ),
};

export const replicaSets: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.replicas === undefined) spec.replicas = 1;
    defaultPodTemplate(spec);
  },
  validate: (o) => validateWorkload("ReplicaSet", o),
  validateUpdate: immutableSelector,
  printer: () =>
    templateWide(
      namedPrinter(
        [
          {
            name: "Desired",
            type: "integer",
            description: doc("api.apps.v1.ReplicaSetSpec", "replicas"),
          },
          {
            name: "Current",
            type: "integer",
            description: doc("api.apps.v1.ReplicaSetStatus", "replicas"),
          },
          {
            name: "Ready",
            type: "integer",
            description: doc("api.apps.v1.ReplicaSetStatus", "readyReplicas"),
          },
        ],
        (o) => [sp(o).replicas ?? 0, st(o).replicas ?? 0, st(o).readyReplicas ?? 0],
      ),
      { selector: doc("api.apps.v1.ReplicaSetSpec", "selector") },
    ),
};

export const statefulSets: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.replicas === undefined) spec.replicas = 1;
    if (spec.podManagementPolicy === undefined) spec.podManagementPolicy = "OrderedReady";
    if (spec.revisionHistoryLimit === undefined) spec.revisionHistoryLimit = 10;
    if (spec.updateStrategy === undefined) {
      spec.updateStrategy = { type: "RollingUpdate", rollingUpdate: { partition: 0 } };
    }
    if (spec.persistentVolumeClaimRetentionPolicy === undefined) {
      spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: "Retain", whenScaled: "Retain" };
    }
    defaultPodTemplate(spec);
  },
  validate: (o) => validateWorkload("StatefulSet", o),
  validateUpdate: statefulSetUpdate,
  printer: () =>
    templateWide(
      namedPrinter([readyColumn], (o) => [readyOfDesired(o)]),
      { selector: false },
    ),
};

export const daemonSets: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.revisionHistoryLimit === undefined) spec.revisionHistoryLimit = 10;
    if (spec.updateStrategy === undefined) {
      spec.updateStrategy = {
        type: "RollingUpdate",
        rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
      };
    }
    defaultPodTemplate(spec);
  },
  validate: (o) => validateWorkload("DaemonSet", o),
  validateUpdate: immutableSelector,
  printer: () =>
    templateWide(
      namedPrinter(
        [
          {
            name: "Desired",
            type: "integer",
            description: doc("api.apps.v1.DaemonSetStatus", "desiredNumberScheduled"),
          },
          {
            name: "Current",
            type: "integer",
            description: doc("api.apps.v1.DaemonSetStatus", "currentNumberScheduled"),
          },
          {
            name: "Ready",
            type: "integer",
            description: doc("api.apps.v1.DaemonSetStatus", "numberReady"),
          },
          {
            name: "Up-to-date",
            type: "integer",
            description: doc("api.apps.v1.DaemonSetStatus", "updatedNumberScheduled"),
          },
          {
            name: "Available",
            type: "integer",
            description: doc("api.apps.v1.DaemonSetStatus", "numberAvailable"),
          },
          {
            name: "Node Selector",
            type: "string",
            description: doc("api.core.v1.PodSpec", "nodeSelector"),
          },
        ],
        (o) => {
          const sel = labelSet(objectAt(objectAt(sp(o).template).spec).nodeSelector);
          return [
            st(o).desiredNumberScheduled ?? 0,
            st(o).currentNumberScheduled ?? 0,
            st(o).numberReady ?? 0,
            st(o).updatedNumberScheduled ?? 0,
            st(o).numberAvailable ?? 0,
            sel,
          ];
        },
      ),
      { selector: doc("api.apps.v1.DaemonSetSpec", "selector") },
    ),
};
