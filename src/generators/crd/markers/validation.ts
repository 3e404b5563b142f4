/**
 * `@validation X` markers: the OpenAPI validations of controller-gen's
 * `+kubebuilder:validation:X` (pkg/crd/markers/validation.go), on fields and types, each also as
 * `@validation items:X` applying to the items of an array. Type checks follow controller-gen:
 * numeric bounds need `integer`/`number`, string bounds a string (or int-or-string), item bounds an
 * array, property bounds an object.
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type {
  ApplyContext,
  MarkerArgs,
  MarkerDefinition,
  MarkerValue,
} from "../../../markers/types.js";

type Apply = (schema: JSONSchemaProps, value: MarkerArgs, ctx: ApplyContext) => void;

function typeName(schema: JSONSchemaProps): string {
  if (schema["x-kubernetes-int-or-string"]) return "an int-or-string";
  return schema.type ? `of type ${schema.type}` : "untyped";
}

function numeric(label: string, key: "maximum" | "minimum" | "multipleOf"): Apply {
  return (schema, v, ctx) => {
    const n = v[""] as number;
    if (schema.type !== "integer" && schema.type !== "number") {
      return ctx.error(`${label} needs a number, but ${ctx.subject} is ${typeName(schema)}`);
    }
    if (schema.type === "integer" && !Number.isInteger(n)) {
      return ctx.error(`${label}=${n} is not a whole number, but ${ctx.subject} is an integer`);
    }
    schema[key] = n;
  };
}

function exclusive(label: string, key: "exclusiveMaximum" | "exclusiveMinimum"): Apply {
  return (schema, v, ctx) => {
    if (schema.type !== "integer" && schema.type !== "number") {
      return ctx.error(`${label} needs a number, but ${ctx.subject} is ${typeName(schema)}`);
    }
    // JSONSchemaProps' booleans are omitempty: controller-gen writes them only when true.
    if (v[""] === true) schema[key] = true;
    else delete schema[key];
  };
}

function stringish(label: string, set: (s: JSONSchemaProps, v: MarkerValue) => void): Apply {
  return (schema, v, ctx) => {
    if (schema.type !== "string" && !schema["x-kubernetes-int-or-string"]) {
      return ctx.error(`${label} needs a string, but ${ctx.subject} is ${typeName(schema)}`);
    }
    set(schema, v[""]!);
  };
}

function arrayish(label: string, set: (s: JSONSchemaProps, v: MarkerValue) => void): Apply {
  return (schema, v, ctx) => {
    if (schema.type !== "array")
      return ctx.error(`${label} needs an array, but ${ctx.subject} is ${typeName(schema)}`);
    set(schema, v[""]!);
  };
}

function objectish(label: string, set: (s: JSONSchemaProps, v: MarkerValue) => void): Apply {
  return (schema, v, ctx) => {
    if (schema.type !== "object")
      return ctx.error(`${label} needs an object, but ${ctx.subject} is ${typeName(schema)}`);
    set(schema, v[""]!);
  };
}

const FT = ["field", "type"] as const;

interface Spec {
  sub: string;
  arg: MarkerDefinition["args"][number] | null;
  help: string;
  example: string;
  apply?: Apply;
  priority?: number;
  targets?: MarkerDefinition["targets"];
  repeatable?: boolean;
  args?: MarkerDefinition["args"];
  items?: boolean;
  kubebuilder?: string;
}

const V = (sub: string) => `@validation ${sub}`;

const specs: Spec[] = [
  {
    sub: "Minimum",
    arg: { name: "", type: "number", required: true, help: "inclusive lower bound" },
    help: "lowest allowed value of a number or integer",
    example: "@validation Minimum=1",
    apply: numeric(V("Minimum"), "minimum"),
  },
  {
    sub: "Maximum",
    arg: { name: "", type: "number", required: true, help: "inclusive upper bound" },
    help: "highest allowed value of a number or integer",
    example: "@validation Maximum=100",
    apply: numeric(V("Maximum"), "maximum"),
  },
  {
    sub: "ExclusiveMinimum",
    arg: { name: "", type: "bool", help: "true makes Minimum exclusive" },
    help: "makes Minimum an exclusive bound",
    example: "@validation ExclusiveMinimum=true",
    apply: exclusive(V("ExclusiveMinimum"), "exclusiveMinimum"),
  },
  {
    sub: "ExclusiveMaximum",
    arg: { name: "", type: "bool", help: "true makes Maximum exclusive" },
    help: "makes Maximum an exclusive bound",
    example: "@validation ExclusiveMaximum=true",
    apply: exclusive(V("ExclusiveMaximum"), "exclusiveMaximum"),
  },
  {
    sub: "MultipleOf",
    arg: { name: "", type: "number", required: true, help: "the value must be a multiple of this" },
    help: "requires the value to be a multiple of the given number",
    example: "@validation MultipleOf=5",
    apply: numeric(V("MultipleOf"), "multipleOf"),
  },
  {
    sub: "MinLength",
    arg: { name: "", type: "int", required: true, help: "minimum length" },
    help: "minimum length of a string",
    example: "@validation MinLength=1",
    apply: stringish(V("MinLength"), (s, v) => {
      s.minLength = v as number;
    }),
  },
  {
    sub: "MaxLength",
    arg: { name: "", type: "int", required: true, help: "maximum length" },
    help: "maximum length of a string",
    example: "@validation MaxLength=63",
    apply: stringish(V("MaxLength"), (s, v) => {
      s.maxLength = v as number;
    }),
  },
  {
    sub: "Pattern",
    arg: {
      name: "",
      type: "string",
      required: true,
      help: "a Go (RE2) regular expression, as kube-apiserver compiles it; quote it with backticks",
    },
    help: "regular expression a string must match",
    example: "@validation Pattern=`^[a-z0-9-]+$`",
    // Whether Go's RE2 compiles it is kube's CRD validation's, after assembly (kube-checks.ts).
    apply: stringish(V("Pattern"), (s, v) => {
      s.pattern = v as string;
    }),
  },
  {
    sub: "MinItems",
    arg: { name: "", type: "int", required: true, help: "minimum number of items" },
    help: "minimum number of items of an array",
    example: "@validation MinItems=1",
    apply: arrayish(V("MinItems"), (s, v) => {
      s.minItems = v as number;
    }),
  },
  {
    sub: "MaxItems",
    arg: { name: "", type: "int", required: true, help: "maximum number of items" },
    help: "maximum number of items of an array",
    example: "@validation MaxItems=10",
    apply: arrayish(V("MaxItems"), (s, v) => {
      s.maxItems = v as number;
    }),
  },
  {
    sub: "UniqueItems",
    arg: { name: "", type: "bool", help: "true requires all items to differ" },
    help: "requires the items of an array to be unique",
    example: "@validation UniqueItems=true",
    apply: arrayish(V("UniqueItems"), (s, v) => {
      // omitempty in controller-gen's JSONSchemaProps: written only when true.
      if (v === true) s.uniqueItems = true;
      else delete s.uniqueItems;
    }),
  },
  {
    sub: "MinProperties",
    arg: { name: "", type: "int", required: true, help: "minimum number of properties" },
    help: "minimum number of properties of an object or map",
    example: "@validation MinProperties=1",
    apply: objectish(V("MinProperties"), (s, v) => {
      s.minProperties = v as number;
    }),
  },
  {
    sub: "MaxProperties",
    arg: { name: "", type: "int", required: true, help: "maximum number of properties" },
    help: "maximum number of properties of an object or map",
    example: "@validation MaxProperties=5",
    apply: objectish(V("MaxProperties"), (s, v) => {
      s.maxProperties = v as number;
    }),
  },
  {
    sub: "Enum",
    arg: {
      name: "",
      type: "list",
      items: "any",
      required: true,
      help: "allowed values joined with ; (quote strings that look like numbers)",
    },
    help: "allowed values (a string-literal union type gives this for free)",
    example: '@validation Enum=Always;Never;"1"',
    apply: (s, v) => {
      s.enum = v[""] as MarkerValue[];
    },
  },
  {
    sub: "Format",
    arg: {
      name: "",
      type: "string",
      required: true,
      help: "an OpenAPI format: date-time, int32, byte, uri, ...",
    },
    help: "OpenAPI format of the value",
    example: "@validation Format=date-time",
    apply: (s, v) => {
      s.format = v[""] as string;
    },
  },
  {
    sub: "Type",
    arg: {
      name: "",
      type: "string",
      required: true,
      oneOf: ["string", "integer", "number", "boolean", "object", "array"],
      help: "the OpenAPI type",
    },
    help: "overrides the OpenAPI type derived from the TypeScript type (applied first)",
    example: "@validation Type=string",
    priority: 9,
    apply: (s, v) => {
      s.type = v[""] as string;
    },
  },
  {
    sub: "Nullable",
    arg: null,
    help: "allows null (the same as `T | null` or @nullable)",
    example: "@validation Nullable",
    kubebuilder: "+nullable",
    apply: (s) => {
      s.nullable = true;
    },
  },
  {
    sub: "XIntOrString",
    arg: null,
    help: "marks an int-or-string value (x-kubernetes-int-or-string); needed before string validations on one",
    example: "@validation XIntOrString",
    priority: 9,
    apply: (s) => {
      s["x-kubernetes-int-or-string"] = true;
    },
  },
  {
    sub: "XPreserveUnknownFields",
    arg: null,
    help: "keeps fields the schema does not declare (x-kubernetes-preserve-unknown-fields)",
    example: "@validation XPreserveUnknownFields",
    kubebuilder: "+kubebuilder:pruning:PreserveUnknownFields",
    apply: (s) => {
      s["x-kubernetes-preserve-unknown-fields"] = true;
    },
  },
  {
    sub: "XEmbeddedResource",
    arg: null,
    help: "the value is a whole Kubernetes object with apiVersion, kind and metadata (x-kubernetes-embedded-resource)",
    example: "@validation XEmbeddedResource",
    apply: (s) => {
      s["x-kubernetes-embedded-resource"] = true;
    },
  },
  {
    sub: "Schemaless",
    arg: null,
    targets: ["field"],
    items: false,
    help: "emits no schema from the field's type (combine with Type, XPreserveUnknownFields ...)",
    example: "@validation Schemaless",
  },
  {
    sub: "XValidation",
    arg: null,
    repeatable: true,
    args: [
      {
        name: "rule",
        type: "string",
        required: true,
        help: "the CEL expression; `self` is the value",
      },
      { name: "message", type: "string", help: "message shown when the rule fails" },
      { name: "messageExpression", type: "string", help: "CEL expression building the message" },
      {
        name: "reason",
        type: "string",
        oneOf: [
          "FieldValueInvalid",
          "FieldValueForbidden",
          "FieldValueRequired",
          "FieldValueDuplicate",
        ],
        help: "the reason reported to the client",
      },
      {
        name: "fieldPath",
        type: "string",
        help: "the field the failure is reported on, relative to self",
      },
      {
        name: "optionalOldSelf",
        type: "bool",
        help: "evaluate transition rules on create too (oldSelf optional)",
      },
    ],
    help: "a CEL validation rule (x-kubernetes-validations); repeatable, source order kept",
    example:
      '@validation XValidation rule="self.minReplicas <= self.maxReplicas" message="min must not exceed max"',
    // Whether the rule compiles, typed against the schema, is kube's CRD validation's, after
    // assembly (kube-checks.ts).
    apply: (s, v) => {
      const rule: Record<string, MarkerValue> = {};
      for (const key of [
        "fieldPath",
        "message",
        "messageExpression",
        "optionalOldSelf",
        "reason",
        "rule",
      ]) {
        if (v[key] !== undefined) rule[key] = v[key]!;
      }
      s["x-kubernetes-validations"] = [...(s["x-kubernetes-validations"] ?? []), rule as never];
    },
  },
];

function oneOf(
  sub: string,
  priority: number,
  message: string,
  rule: (fields: string[]) => string,
): Spec {
  return {
    sub,
    arg: {
      name: "",
      type: "list",
      required: true,
      help: "the field names of the group joined with ;",
    },
    targets: ["type"],
    items: false,
    repeatable: true,
    priority,
    help: `${message.replace("[%s]", "the group")} (as a CEL rule)`,
    example: `@validation ${sub}=foo;bar`,
    apply: (s, v, ctx) => {
      const fields = v[""] as string[];
      if (s.type !== "object")
        return ctx.error(
          `@validation ${sub} needs an object, but ${ctx.subject} is ${typeName(s)}`,
        );
      for (const f of fields) {
        if (!s.properties?.[f])
          return ctx.error(`@validation ${sub}: ${ctx.subject} has no field "${f}"`);
        if (s.required?.includes(f)) {
          return ctx.error(
            `@validation ${sub}: field "${f}" of ${ctx.subject} is required; fields of a one-of group must be optional`,
          );
        }
      }
      s["x-kubernetes-validations"] = [
        ...(s["x-kubernetes-validations"] ?? []),
        { message: message.replace("%s", fields.join(" ")), rule: rule(fields) },
      ];
    },
  };
}

specs.push(
  oneOf(
    "AtMostOneOf",
    11,
    "at most one of the fields in [%s] may be set",
    (f) => `${f.map((x) => `(has(self.${x})?1:0)`).join("+")} <= 1`,
  ),
  oneOf(
    "ExactlyOneOf",
    12,
    "exactly one of the fields in [%s] must be set",
    (f) => `${f.map((x) => `(has(self.${x})?1:0)`).join("+")} == 1`,
  ),
  oneOf("AtLeastOneOf", 13, "at least one of the fields in [%s] must be set", (f) =>
    f.map((x) => `has(self.${x})`).join("||"),
  ),
);

function definition(spec: Spec): MarkerDefinition {
  return {
    name: `validation ${spec.sub}`,
    targets: spec.targets ?? FT,
    args: spec.args ?? (spec.arg ? [spec.arg] : []),
    repeatable: spec.repeatable,
    group: "validation",
    help: spec.help,
    example: spec.example,
    kubebuilder: spec.kubebuilder ?? `+kubebuilder:validation:${spec.sub}`,
    applyToSchema: spec.apply,
    priority: spec.priority,
  };
}

function itemsDefinition(spec: Spec): MarkerDefinition {
  const base = definition(spec);
  const apply = spec.apply!;
  return {
    ...base,
    name: `validation items:${spec.sub}`,
    help: `${spec.help}, for each item of an array`,
    example: spec.example.replace(`@validation ${spec.sub}`, `@validation items:${spec.sub}`),
    kubebuilder: `+kubebuilder:validation:items:${spec.sub}`,
    itemsOf: base.name,
    applyToSchema: (schema, value, ctx) => {
      if (schema.type !== "array" || !schema.items) {
        return ctx.error(
          `@validation items:${spec.sub} needs an array, but ${ctx.subject} is ${typeName(schema)}`,
        );
      }
      apply(schema.items, value, { ...ctx, subject: `the items of ${ctx.subject}` });
    },
  };
}

export const validationMarkers: MarkerDefinition[] = [
  ...specs.map(definition),
  ...specs.filter((s) => s.items !== false && s.apply).map(itemsDefinition),
];
