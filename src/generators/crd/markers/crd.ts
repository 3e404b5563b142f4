/**
 * Root-type markers that shape the CustomResourceDefinition rather than the schema
 * (controller-gen pkg/crd/markers/crd.go): names and scope, subresources, printer columns,
 * version flags, selectable fields and CRD metadata. The CRD assembler reads them by name.
 */
import type { MarkerDefinition } from "../../../markers/types.js";

export const crdMarkers: MarkerDefinition[] = [
  {
    name: "resource",
    targets: ["root"],
    args: [
      {
        name: "scope",
        type: "string",
        oneOf: ["Namespaced", "Cluster"],
        help: "Namespaced (default) or Cluster",
      },
      {
        name: "path",
        type: "string",
        help: "the plural resource name (default: the kind pluralized as Kubebuilder does, lower-cased)",
      },
      {
        name: "singular",
        type: "string",
        help: "the singular name (default: the lower-case kind)",
      },
      { name: "shortName", type: "list", help: "short names joined with ;" },
      { name: "categories", type: "list", help: "categories joined with ; (e.g. all)" },
    ],
    group: "crd",
    help: "marks the root type of a kind (a CRD) and sets its names and scope",
    example: "@resource scope=Cluster shortName=ac;acs categories=all",
    kubebuilder: "+kubebuilder:object:root=true +kubebuilder:resource:...",
  },
  {
    name: "subresource status",
    targets: ["root"],
    args: [],
    group: "crd",
    help: "enables the status subresource",
    example: "@subresource status",
    kubebuilder: "+kubebuilder:subresource:status",
  },
  {
    name: "subresource scale",
    targets: ["root"],
    args: [
      {
        name: "specpath",
        type: "string",
        required: true,
        help: "JSON path of the desired replicas, e.g. .spec.replicas",
      },
      {
        name: "statuspath",
        type: "string",
        required: true,
        help: "JSON path of the observed replicas",
      },
      {
        name: "selectorpath",
        type: "string",
        help: "JSON path of the label selector string (for HPA)",
      },
    ],
    group: "crd",
    help: "enables the scale subresource",
    example: "@subresource scale specpath=.spec.replicas statuspath=.status.readyReplicas",
    kubebuilder: "+kubebuilder:subresource:scale",
  },
  {
    name: "printcolumn",
    targets: ["root"],
    repeatable: true,
    args: [
      { name: "name", type: "string", required: true, help: "column header" },
      {
        name: "type",
        type: "string",
        required: true,
        suggest: ["integer", "number", "string", "boolean", "date"],
        help: "integer, number, string, boolean or date",
      },
      {
        name: "jsonPath",
        type: "string",
        required: true,
        help: "JSON path of the value, e.g. .status.phase",
      },
      { name: "description", type: "string", help: "column help" },
      {
        name: "format",
        type: "string",
        help: "OpenAPI format: int32, int64, float, double, byte, date, date-time or password",
      },
      {
        name: "priority",
        type: "int",
        help: "0 shows in the standard view; higher only with -o wide",
      },
    ],
    group: "crd",
    help: "an additional printer column for kubectl get; repeatable, order kept",
    example: '@printcolumn name=Ready type=integer jsonPath=".status.readyReplicas"',
    kubebuilder: "+kubebuilder:printcolumn",
  },
  {
    name: "storageversion",
    targets: ["root"],
    args: [],
    group: "crd",
    help: "this version is the one stored in etcd (required when a kind has several versions)",
    example: "@storageversion",
    kubebuilder: "+kubebuilder:storageversion",
  },
  {
    name: "deprecatedversion",
    targets: ["root"],
    args: [
      { name: "warning", type: "string", help: "warning returned to clients using this version" },
    ],
    group: "crd",
    help: "marks this version deprecated",
    example: '@deprecatedversion warning="use v1"',
    kubebuilder: "+kubebuilder:deprecatedversion",
  },
  {
    name: "unservedversion",
    targets: ["root"],
    args: [],
    group: "crd",
    help: "this version is not served by the API server (served: false)",
    example: "@unservedversion",
    kubebuilder: "+kubebuilder:unservedversion",
  },
  {
    name: "skipversion",
    targets: ["root"],
    args: [],
    group: "crd",
    help: "leaves this version out of the CRD",
    example: "@skipversion",
    kubebuilder: "+kubebuilder:skipversion",
  },
  {
    name: "selectablefield",
    targets: ["root"],
    repeatable: true,
    args: [
      {
        name: "jsonPath",
        type: "string",
        required: true,
        help: "JSON path of a field usable in field selectors",
      },
    ],
    group: "crd",
    help: "a field usable in field selectors (selectableFields); repeatable",
    example: "@selectablefield jsonPath=.spec.color",
    kubebuilder: "+kubebuilder:selectablefield",
  },
  {
    name: "metadata",
    targets: ["root"],
    repeatable: true,
    args: [
      {
        name: "annotations",
        type: "list",
        help: 'key=value pairs joined with ; (quote each: "a=b";"c=d")',
      },
      { name: "labels", type: "list", help: "key=value pairs joined with ;" },
    ],
    group: "crd",
    help: "annotations and labels written on the CRD itself",
    example:
      '@metadata annotations="api-approved.kubernetes.io=https://github.com/kubernetes/kubernetes/pull/1"',
    kubebuilder: "+kubebuilder:metadata",
  },
];
