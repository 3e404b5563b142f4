/**
 * Topology markers for server-side apply (controller-gen pkg/crd/markers/topology.go): how lists,
 * maps and structs merge. `@listMapKey` requires `@listType map` on the same array; that check is
 * done once every marker of the node has applied (see the CRD generator's marker application).
 */
import type { MarkerDefinition } from "../../../markers/types.js";

export const topologyMarkers: MarkerDefinition[] = [
  {
    name: "listType",
    targets: ["field", "type"],
    args: [
      {
        name: "",
        type: "string",
        required: true,
        oneOf: ["atomic", "set", "map"],
        help: "atomic, set or map",
      },
    ],
    group: "topology",
    help: "how server-side apply merges an array (x-kubernetes-list-type)",
    example: "@listType map",
    kubebuilder: "+listType=map",
    priority: 9,
    applyToSchema: (s, v, ctx) => {
      if (s.type !== "array")
        return ctx.error(
          `@listType needs an array, but ${ctx.subject} is ${s.type ? `of type ${s.type}` : "untyped"}`,
        );
      s["x-kubernetes-list-type"] = v[""] as string;
    },
  },
  {
    name: "listMapKey",
    targets: ["field", "type"],
    args: [
      {
        name: "",
        type: "string",
        required: true,
        help: "a field of the items that identifies an item",
      },
    ],
    repeatable: true,
    group: "topology",
    help: "a key field of a @listType map array (x-kubernetes-list-map-keys); repeat for composite keys",
    example: "@listMapKey name",
    kubebuilder: "+listMapKey=name",
    applyToSchema: (s, v, ctx) => {
      if (s.type !== "array")
        return ctx.error(
          `@listMapKey needs an array, but ${ctx.subject} is ${s.type ? `of type ${s.type}` : "untyped"}`,
        );
      if (s["x-kubernetes-list-type"] !== "map") {
        return ctx.error(`@listMapKey needs @listType map on ${ctx.subject}`);
      }
      const key = v[""] as string;
      const item = s.items;
      if (item?.properties && !item.properties[key]) {
        return ctx.error(`@listMapKey ${key}: the items of ${ctx.subject} have no field "${key}"`);
      }
      s["x-kubernetes-list-map-keys"] = [...(s["x-kubernetes-list-map-keys"] ?? []), key];
    },
  },
  {
    name: "mapType",
    targets: ["field", "type"],
    args: [
      {
        name: "",
        type: "string",
        required: true,
        oneOf: ["granular", "atomic"],
        help: "granular or atomic",
      },
    ],
    group: "topology",
    help: "how server-side apply merges a map (x-kubernetes-map-type)",
    example: "@mapType atomic",
    kubebuilder: "+mapType=atomic",
    applyToSchema: (s, v, ctx) => {
      if (s.type !== "object")
        return ctx.error(
          `@mapType needs a map, but ${ctx.subject} is ${s.type ? `of type ${s.type}` : "untyped"}`,
        );
      s["x-kubernetes-map-type"] = v[""] as string;
    },
  },
  {
    name: "structType",
    targets: ["field", "type"],
    args: [
      {
        name: "",
        type: "string",
        required: true,
        oneOf: ["granular", "atomic"],
        help: "granular or atomic",
      },
    ],
    group: "topology",
    help: "how server-side apply merges an object (written as x-kubernetes-map-type, as controller-gen does)",
    example: "@structType atomic",
    kubebuilder: "+structType=atomic",
    applyToSchema: (s, v, ctx) => {
      if (s.type !== "object" && s.type !== undefined)
        return ctx.error(`@structType needs an object, but ${ctx.subject} is of type ${s.type}`);
      s["x-kubernetes-map-type"] = v[""] as string;
    },
  },
];
