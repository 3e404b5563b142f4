/**
 * The core/v1 printers kube-apiserver 1.32 registers for PersistentVolumes, PersistentVolumeClaims,
 * PodTemplates, ResourceQuotas and ComponentStatuses (`pkg/printers/internalversion/printers.go`).
 */
import { type KubeObject, objectAt } from "../../api/types.js";
import { nameColumn, namedPrinter, type Printer } from "../printing.js";
import { doc } from "./describe.js";
import { accessModes, containerCells, labelSet, quantity, str } from "./format.js";

const STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

/** The storage class a volume or claim names: the beta annotation wins over the field. */
function storageClassOf(o: KubeObject): string {
  const annotated = o.metadata?.annotations?.[STORAGE_CLASS_ANNOTATION];
  if (annotated !== undefined) return annotated;
  return str(objectAt(o.spec).storageClassName);
}

/** A volume's or claim's phase, `Terminating` once its deletion began. */
function phaseOf(o: KubeObject): string {
  return o.metadata?.deletionTimestamp ? "Terminating" : str(objectAt(o.status).phase);
}

function unsetOr(v: unknown): string {
  return typeof v === "string" ? v : "<unset>";
}

export const persistentVolumePrinter: Printer = (() => {
  const base = namedPrinter(
    [
      {
        name: "Capacity",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeSpec", "capacity"),
      },
      {
        name: "Access Modes",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeSpec", "accessModes"),
      },
      {
        name: "Reclaim Policy",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeSpec", "persistentVolumeReclaimPolicy"),
      },
      {
        name: "Status",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeStatus", "phase"),
      },
      {
        name: "Claim",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeSpec", "claimRef"),
      },
      { name: "StorageClass", type: "string", description: "StorageClass of the pv" },
      {
        name: "VolumeAttributesClass",
        type: "string",
        description: "VolumeAttributesClass of the pv",
      },
      {
        name: "Reason",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeStatus", "reason"),
      },
    ],
    (o) => {
      const spec = objectAt(o.spec);
      const ref = spec.claimRef === undefined ? undefined : objectAt(spec.claimRef);
      return [
        quantity(objectAt(spec.capacity).storage),
        accessModes(spec.accessModes),
        str(spec.persistentVolumeReclaimPolicy),
        phaseOf(o),
        ref ? `${str(ref.namespace)}/${str(ref.name)}` : "",
        storageClassOf(o),
        unsetOr(spec.volumeAttributesClassName),
        str(objectAt(o.status).reason),
      ];
    },
  );
  return {
    columns: [
      ...base.columns,
      {
        name: "VolumeMode",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeSpec", "volumeMode"),
        priority: 1,
      },
    ],
    cells: (o) => [...base.cells(o), unsetOr(objectAt(o.spec).volumeMode)],
  };
})();

export const persistentVolumeClaimPrinter: Printer = (() => {
  const base = namedPrinter(
    [
      {
        name: "Status",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeClaimStatus", "phase"),
      },
      {
        name: "Volume",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeClaimSpec", "volumeName"),
      },
      {
        name: "Capacity",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeClaimStatus", "capacity"),
      },
      {
        name: "Access Modes",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeClaimStatus", "accessModes"),
      },
      { name: "StorageClass", type: "string", description: "StorageClass of the pvc" },
      {
        name: "VolumeAttributesClass",
        type: "string",
        description: "VolumeAttributesClass of the pvc",
      },
    ],
    (o) => {
      const spec = objectAt(o.spec);
      const status = objectAt(o.status);
      // Capacity and access modes are the bound volume's, shown once the claim names one.
      const bound = str(spec.volumeName) !== "";
      const annotated = o.metadata?.annotations?.[STORAGE_CLASS_ANNOTATION];
      return [
        phaseOf(o),
        str(spec.volumeName),
        bound ? quantity(objectAt(status.capacity).storage) : "",
        bound ? accessModes(status.accessModes) : "",
        annotated ?? str(spec.storageClassName),
        unsetOr(spec.volumeAttributesClassName),
      ];
    },
  );
  return {
    columns: [
      ...base.columns,
      {
        name: "VolumeMode",
        type: "string",
        description: doc("api.core.v1.PersistentVolumeClaimSpec", "volumeMode"),
        priority: 1,
      },
    ],
    cells: (o) => [...base.cells(o), unsetOr(objectAt(o.spec).volumeMode)],
  };
})();

/** PodTemplates: no age column, the template's containers and labels. */
export const podTemplatePrinter: Printer = {
  columns: [
    nameColumn,
    { name: "Containers", type: "string", description: "Names of each container in the template." },
    {
      name: "Images",
      type: "string",
      description: "Images referenced by each container in the template.",
    },
    { name: "Pod Labels", type: "string", description: "The labels for the pod template." },
  ],
  cells(o) {
    const template = objectAt(o.template);
    return [
      o.metadata?.name,
      ...containerCells(template),
      labelSet(objectAt(template.metadata).labels),
    ];
  },
};

/**
 * ResourceQuotas: `name: used/hard` for every hard limit, sorted by resource name; `limits.*`
 * resources go to the Limit column, the rest to Request.
 */
export const resourceQuotaPrinter: Printer = namedPrinter(
  [
    {
      name: "Request",
      type: "string",
      description:
        "Request represents a minimum amount of cpu/memory that a container may consume.",
    },
    {
      name: "Limit",
      type: "string",
      description:
        "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.",
    },
  ],
  (o) => {
    const status = objectAt(o.status);
    const hard = objectAt(status.hard);
    const used = objectAt(status.used);
    const requests: string[] = [];
    const limits: string[] = [];
    for (const name of Object.keys(hard).sort()) {
      const cell = `${name}: ${quantity(used[name])}/${quantity(hard[name])}`;
      const pieces = name.split(".");
      (pieces.length > 1 && pieces[0] === "limits" ? limits : requests).push(cell);
    }
    return [requests.join(", "), limits.join(", ")];
  },
);

/** ComponentStatuses: the Healthy condition's status, message and error; no age column. */
export const componentStatusPrinter: Printer = {
  columns: [
    nameColumn,
    { name: "Status", type: "string", description: "Status of the component conditions" },
    { name: "Message", type: "string", description: "Message of the component conditions" },
    { name: "Error", type: "string", description: "Error of the component conditions" },
  ],
  cells(o) {
    const conditions = Array.isArray(o.conditions)
      ? (o.conditions as Record<string, unknown>[])
      : [];
    const healthy = conditions.find((c) => c.type === "Healthy");
    if (!healthy) return [o.metadata?.name, "Unknown", "", ""];
    return [
      o.metadata?.name,
      healthy.status === "True" ? "Healthy" : "Unhealthy",
      str(healthy.message),
      str(healthy.error),
    ];
  },
};
