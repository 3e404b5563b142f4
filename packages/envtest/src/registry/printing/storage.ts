/**
 * The storage.k8s.io/v1 printers of kube-apiserver 1.32: StorageClasses, VolumeAttachments,
 * CSIDrivers, CSINodes and CSIStorageCapacities (`pkg/printers/internalversion/printers.go`).
 */
import { objectAt } from "../../api/types.js";
import { nameColumn, namedPrinter, type Printer } from "../printing.js";
import { doc } from "./describe.js";
import { listAt, str } from "./format.js";

const DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";
const BETA_DEFAULT_CLASS = "storageclass.beta.kubernetes.io/is-default-class";

/** StorageClasses: the default class is named `name (default)`; unset fields print kube's defaults. */
export const storageClassPrinter: Printer = (() => {
  const base = namedPrinter(
    [
      {
        name: "Provisioner",
        type: "string",
        description: doc("api.storage.v1.StorageClass", "provisioner"),
      },
      {
        name: "ReclaimPolicy",
        type: "string",
        description: doc("api.storage.v1.StorageClass", "reclaimPolicy"),
      },
      {
        name: "VolumeBindingMode",
        type: "string",
        description: doc("api.storage.v1.StorageClass", "volumeBindingMode"),
      },
      {
        name: "AllowVolumeExpansion",
        type: "string",
        description: doc("api.storage.v1.StorageClass", "allowVolumeExpansion"),
      },
    ],
    (o) => [
      str(o.provisioner),
      typeof o.reclaimPolicy === "string" ? o.reclaimPolicy : "Delete",
      typeof o.volumeBindingMode === "string" ? o.volumeBindingMode : "Immediate",
      o.allowVolumeExpansion === true,
    ],
  );
  return {
    columns: base.columns,
    cells(o) {
      const cells = base.cells(o);
      const a = o.metadata?.annotations ?? {};
      if (a[DEFAULT_CLASS] === "true" || a[BETA_DEFAULT_CLASS] === "true")
        cells[0] = `${cells[0]} (default)`;
      return cells;
    },
  };
})();

export const volumeAttachmentPrinter: Printer = namedPrinter(
  [
    {
      name: "Attacher",
      type: "string",
      format: "name",
      description: doc("api.storage.v1.VolumeAttachmentSpec", "attacher"),
    },
    {
      name: "PV",
      type: "string",
      description: doc("api.storage.v1.VolumeAttachmentSource", "persistentVolumeName"),
    },
    {
      name: "Node",
      type: "string",
      description: doc("api.storage.v1.VolumeAttachmentSpec", "nodeName"),
    },
    {
      name: "Attached",
      type: "boolean",
      description: doc("api.storage.v1.VolumeAttachmentStatus", "attached"),
    },
  ],
  (o) => {
    const spec = objectAt(o.spec);
    return [
      str(spec.attacher),
      str(objectAt(spec.source).persistentVolumeName),
      str(spec.nodeName),
      objectAt(o.status).attached === true,
    ];
  },
);

/** CSIDrivers: each flag with the value an unset one means (attachRequired defaults to true). */
export const csiDriverPrinter: Printer = namedPrinter(
  [
    {
      name: "AttachRequired",
      type: "boolean",
      description: doc("api.storage.v1.CSIDriverSpec", "attachRequired"),
    },
    {
      name: "PodInfoOnMount",
      type: "boolean",
      description: doc("api.storage.v1.CSIDriverSpec", "podInfoOnMount"),
    },
    {
      name: "StorageCapacity",
      type: "boolean",
      description: doc("api.storage.v1.CSIDriverSpec", "storageCapacity"),
    },
    {
      name: "TokenRequests",
      type: "string",
      description: doc("api.storage.v1.CSIDriverSpec", "tokenRequests"),
    },
    {
      name: "RequiresRepublish",
      type: "boolean",
      description: doc("api.storage.v1.CSIDriverSpec", "requiresRepublish"),
    },
    {
      name: "Modes",
      type: "string",
      description: doc("api.storage.v1.CSIDriverSpec", "volumeLifecycleModes"),
    },
  ],
  (o) => {
    const spec = objectAt(o.spec);
    const modes = (Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes : []).join(
      ",",
    );
    return [
      spec.attachRequired !== false,
      spec.podInfoOnMount === true,
      spec.storageCapacity === true,
      Array.isArray(spec.tokenRequests)
        ? listAt(spec.tokenRequests)
            .map((t) => str(t.audience))
            .join(",")
        : "<unset>",
      spec.requiresRepublish === true,
      modes === "" ? "<none>" : modes,
    ];
  },
);

export const csiNodePrinter: Printer = namedPrinter(
  [
    {
      name: "Drivers",
      type: "integer",
      description: "Drivers indicates the number of CSI drivers registered on the node",
    },
  ],
  (o) => [listAt(objectAt(o.spec).drivers).length],
);

/** CSIStorageCapacities: no age column. */
export const csiStorageCapacityPrinter: Printer = {
  columns: [
    nameColumn,
    {
      name: "StorageClassName",
      type: "string",
      description: doc("api.storage.v1.CSIStorageCapacity", "storageClassName"),
    },
    {
      name: "Capacity",
      type: "string",
      description: doc("api.storage.v1.CSIStorageCapacity", "capacity"),
    },
  ],
  cells: (o) => [
    o.metadata?.name,
    str(o.storageClassName),
    typeof o.capacity === "string" ? o.capacity : "<unset>",
  ],
};
