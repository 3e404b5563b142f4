/**
 * Field markers that are not validations: required/optional, nullability, defaults, examples,
 * titles, external docs and immutability (controller-gen's `+kubebuilder:default`,
 * `+kubebuilder:example`, `+kubebuilder:title`, `+optional`/`+required`, `+nullable`,
 * `+kubebuilder:externalDocs`, `+k8s:immutable`). `@optional` also stands on the package (the
 * GroupVersion const) to make every field of the version optional unless marked `@required`.
 */
import type { MarkerDefinition, MarkerValue } from "../../../markers/types.js";

export const fieldMarkers: MarkerDefinition[] = [
  {
    name: "optional",
    targets: ["field", "package"],
    args: [],
    group: "field",
    help: "the field is not required (same as `?`); on the GroupVersion const: every field of the version defaults to optional",
    example: "@optional",
    kubebuilder: "+optional / +kubebuilder:validation:Optional",
  },
  {
    name: "required",
    targets: ["field"],
    args: [],
    group: "field",
    help: "the field is required even if declared with `?` or under a package-wide @optional",
    example: "@required",
    kubebuilder: "+required / +kubebuilder:validation:Required",
  },
  {
    name: "nullable",
    targets: ["field"],
    args: [],
    group: "field",
    help: "the field accepts null (the same as `T | null`)",
    example: "@nullable",
    kubebuilder: "+nullable",
    applyToSchema: (s) => {
      s.nullable = true;
    },
  },
  {
    name: "default",
    targets: ["field"],
    args: [
      {
        name: "",
        type: "any",
        required: true,
        help: "a YAML flow value: 1, ClusterIP, true, {}, [a, b], {a: 1}",
      },
    ],
    group: "field",
    help: "default value set by the API server when the field is absent",
    example: "@default ClusterIP",
    kubebuilder: "+kubebuilder:default=<value> / +default=<JSON>",
    applyToSchema: (s, v) => {
      let value = v[""] as MarkerValue;
      // `{}` on an array means "empty", as controller-gen writes it.
      if (
        s.type === "array" &&
        value &&
        typeof value === "object" &&
        !Array.isArray(value) &&
        !Object.keys(value).length
      ) {
        value = [];
      }
      s.default = value;
    },
  },
  {
    name: "example",
    targets: ["field", "type"],
    args: [{ name: "", type: "any", required: true, help: "a YAML flow value" }],
    group: "field",
    help: "an example value shown in the schema",
    example: "@example my-app",
    kubebuilder: "+kubebuilder:example=<value>",
    applyToSchema: (s, v) => {
      s.example = v[""] as MarkerValue;
    },
  },
  {
    name: "title",
    targets: ["field", "type"],
    args: [{ name: "", type: "text", required: true, help: "the title, the rest of the line" }],
    group: "field",
    help: "a short title for the value (the field's title wins over its type's)",
    example: "@title Replica count",
    kubebuilder: "+kubebuilder:title=<value>",
    applyToSchema: (s, v) => {
      s.title = v[""] as string;
    },
  },
  {
    name: "externalDocs",
    targets: ["field", "type"],
    args: [
      { name: "url", type: "string", required: true, help: "an absolute http(s) URL" },
      { name: "description", type: "string", help: "what the link points to" },
    ],
    group: "field",
    help: "a link to further documentation (externalDocs)",
    example: '@externalDocs url="https://example.com/docs" description="the manual"',
    kubebuilder: "+kubebuilder:externalDocs",
    applyToSchema: (s, v, ctx) => {
      const url = v.url as string;
      if (!/^https?:\/\/[^\s/]+/.test(url))
        return ctx.error(`@externalDocs: url "${url}" is not an absolute http(s) URL`);
      s.externalDocs = {
        url,
        ...(v.description !== undefined ? { description: v.description as string } : {}),
      };
    },
  },
  {
    name: "immutable",
    targets: ["field"],
    args: [],
    group: "field",
    help: "the value cannot change once set (CEL rule self == oldSelf; an optional field also cannot be removed)",
    example: "@immutable",
    kubebuilder: "+k8s:immutable",
    applyToSchema: (s) => {
      s["x-kubernetes-validations"] = [
        ...(s["x-kubernetes-validations"] ?? []),
        { message: "field is immutable", rule: "self == oldSelf" },
      ];
    },
  },
];
