/**
 * Package markers, written in the JSDoc of the exported `GroupVersion` const of a version's
 * `groupversion.ts` (controller-gen's `+groupName` / `+versionName` in groupversion_info.go).
 */
import type { MarkerDefinition } from "../../../markers/types.js";

export const packageMarkers: MarkerDefinition[] = [
  {
    name: "groupName",
    targets: ["package"],
    args: [
      {
        name: "",
        type: "string",
        required: false,
        help: "the API group, e.g. demo.my.domain (empty: the core group)",
      },
    ],
    group: "package",
    help: "the API group of the types in this folder",
    example: "@groupName demo.my.domain",
    kubebuilder: "+groupName=demo.my.domain",
  },
  {
    name: "versionName",
    targets: ["package"],
    args: [{ name: "", type: "string", required: true, help: "the API version, e.g. v1beta1" }],
    group: "package",
    help: "the API version of the types in this folder (default: the folder name)",
    example: "@versionName v1",
    kubebuilder: "+versionName=v1",
  },
];
