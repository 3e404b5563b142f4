/**
 * `/openapi/v2` in protobuf, which is the only form kubectl asks for (client-go's
 * `OpenAPISchema()` sends `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`
 * and unmarshals the body as gnostic's `openapi.v2.Document`). protobufjs encodes it from the
 * message layout below: the subset of gnostic's OpenAPIv2.proto (google/gnostic-models,
 * Apache-2.0) a Kubernetes document uses, field numbers as upstream defines them. Vendor
 * extensions, enums and defaults travel as YAML text in `Any.yaml`, as gnostic writes them.
 */
import pb from "protobufjs/light.js";
import { stringify } from "yaml";
import { isObject, type JsonObject } from "../../api/types.js";

/**
 * The media type answered. Clients ask with `@v1.0` or `.v1.0`; kube-openapi answers the dotted
 * form for both, since Go's mime parser (client-go reads the response type) rejects the `@`.
 */
export const PROTOBUF_V2 = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

type Fields = Record<string, [id: number, type: string, rule?: "repeated"]>;

const messages: Record<string, Fields> = {
  Document: {
    swagger: [1, "string"],
    info: [2, "Info"],
    paths: [8, "Paths"],
    definitions: [9, "Definitions"],
    security: [12, "SecurityRequirement", "repeated"],
    security_definitions: [13, "SecurityDefinitions"],
  },
  Info: { title: [1, "string"], version: [2, "string"] },
  Any: { yaml: [2, "string"] },
  NamedAny: { name: [1, "string"], value: [2, "Any"] },
  Paths: { path: [2, "NamedPathItem", "repeated"] },
  NamedPathItem: { name: [1, "string"], value: [2, "PathItem"] },
  PathItem: {
    get: [2, "Operation"],
    put: [3, "Operation"],
    post: [4, "Operation"],
    delete: [5, "Operation"],
    patch: [8, "Operation"],
    parameters: [9, "ParametersItem", "repeated"],
  },
  Operation: {
    tags: [1, "string", "repeated"],
    description: [3, "string"],
    operation_id: [5, "string"],
    produces: [6, "string", "repeated"],
    consumes: [7, "string", "repeated"],
    parameters: [8, "ParametersItem", "repeated"],
    responses: [9, "Responses"],
    schemes: [10, "string", "repeated"],
    vendor_extension: [13, "NamedAny", "repeated"],
  },
  ParametersItem: { parameter: [1, "Parameter"] },
  Parameter: { non_body_parameter: [2, "NonBodyParameter"] },
  NonBodyParameter: {
    query_parameter_sub_schema: [3, "QueryParameterSubSchema"],
    path_parameter_sub_schema: [4, "PathParameterSubSchema"],
  },
  QueryParameterSubSchema: {
    required: [1, "bool"],
    in: [2, "string"],
    description: [3, "string"],
    name: [4, "string"],
    type: [6, "string"],
    unique_items: [20, "bool"],
  },
  PathParameterSubSchema: {
    required: [1, "bool"],
    in: [2, "string"],
    description: [3, "string"],
    name: [4, "string"],
    type: [5, "string"],
    unique_items: [19, "bool"],
  },
  Responses: { response_code: [1, "NamedResponseValue", "repeated"] },
  NamedResponseValue: { name: [1, "string"], value: [2, "ResponseValue"] },
  ResponseValue: { response: [1, "Response"] },
  Response: { description: [1, "string"], schema: [2, "SchemaItem"] },
  SchemaItem: { schema: [1, "Schema"] },
  Definitions: { additional_properties: [1, "NamedSchema", "repeated"] },
  NamedSchema: { name: [1, "string"], value: [2, "Schema"] },
  Properties: { additional_properties: [1, "NamedSchema", "repeated"] },
  Schema: {
    _ref: [1, "string"],
    format: [2, "string"],
    description: [4, "string"],
    default: [5, "Any"],
    required: [19, "string", "repeated"],
    enum: [20, "Any", "repeated"],
    additional_properties: [21, "AdditionalPropertiesItem"],
    type: [22, "TypeItem"],
    items: [23, "ItemsItem"],
    properties: [25, "Properties"],
    vendor_extension: [31, "NamedAny", "repeated"],
  },
  AdditionalPropertiesItem: { schema: [1, "Schema"], boolean: [2, "bool"] },
  TypeItem: { value: [1, "string", "repeated"] },
  ItemsItem: { schema: [1, "Schema", "repeated"] },
  SecurityRequirement: { additional_properties: [1, "NamedStringArray", "repeated"] },
  NamedStringArray: { name: [1, "string"], value: [2, "StringArray"] },
  StringArray: { value: [1, "string", "repeated"] },
  SecurityDefinitions: {
    additional_properties: [1, "NamedSecurityDefinitionsItem", "repeated"],
  },
  NamedSecurityDefinitionsItem: { name: [1, "string"], value: [2, "SecurityDefinitionsItem"] },
  SecurityDefinitionsItem: { api_key_security: [2, "ApiKeySecurity"] },
  ApiKeySecurity: {
    type: [1, "string"],
    name: [2, "string"],
    in: [3, "string"],
    description: [4, "string"],
  },
};

let documentType: pb.Type | undefined;
function documentMessage(): pb.Type {
  if (documentType) return documentType;
  const nested: Record<string, pb.IType> = {};
  for (const [name, fields] of Object.entries(messages)) {
    nested[name] = {
      fields: Object.fromEntries(
        Object.entries(fields).map(([f, [id, type, rule]]) => [
          f,
          { id, type, ...(rule ? { rule } : {}) },
        ]),
      ),
    };
  }
  const root = pb.Root.fromJSON({ nested: { openapi: { nested: { v2: { nested } } } } });
  documentType = root.lookupType("openapi.v2.Document");
  return documentType;
}

type Msg = Record<string, unknown>;

const any = (v: unknown): Msg => ({ yaml: stringify(v) });

function extensions(node: JsonObject): Msg[] {
  return Object.keys(node)
    .filter((k) => k.startsWith("x-"))
    .map((name) => ({ name, value: any(node[name]) }));
}

function schema(node: JsonObject): Msg {
  const out: Msg = {};
  if (typeof node.$ref === "string") out._ref = node.$ref;
  if (typeof node.format === "string") out.format = node.format;
  if (typeof node.description === "string") out.description = node.description;
  if (node.default !== undefined) out.default = any(node.default);
  if (Array.isArray(node.required)) out.required = node.required;
  if (Array.isArray(node.enum)) out.enum = node.enum.map(any);
  if (typeof node.type === "string") out.type = { value: [node.type] };
  if (isObject(node.items)) out.items = { schema: [schema(node.items)] };
  if (isObject(node.properties))
    out.properties = {
      additional_properties: Object.entries(node.properties).map(([name, s]) => ({
        name,
        value: schema(s as JsonObject),
      })),
    };
  if (typeof node.additionalProperties === "boolean")
    out.additional_properties = { boolean: node.additionalProperties };
  else if (isObject(node.additionalProperties))
    out.additional_properties = { schema: schema(node.additionalProperties) };
  const ext = extensions(node);
  if (ext.length) out.vendor_extension = ext;
  return out;
}

function parameter(p: JsonObject): Msg {
  const common = {
    required: p.required === true,
    in: p.in,
    description: p.description,
    name: p.name,
    type: p.type,
    unique_items: p.uniqueItems === true,
  };
  return {
    parameter: {
      non_body_parameter:
        p.in === "path"
          ? { path_parameter_sub_schema: common }
          : { query_parameter_sub_schema: common },
    },
  };
}

function operation(op: JsonObject): Msg {
  const responses = Object.entries((op.responses ?? {}) as JsonObject).map(([code, r]) => {
    const resp = r as JsonObject;
    return {
      name: code,
      value: {
        response: {
          description: resp.description,
          ...(isObject(resp.schema) ? { schema: { schema: schema(resp.schema) } } : {}),
        },
      },
    };
  });
  return {
    description: op.description,
    consumes: op.consumes,
    produces: op.produces,
    parameters: ((op.parameters ?? []) as JsonObject[]).map(parameter),
    responses: { response_code: responses },
    schemes: op.schemes,
    vendor_extension: extensions(op),
  };
}

/** The Swagger 2.0 document (as JSON) encoded as gnostic's protobuf `Document`. */
export function encodeOpenApiV2(doc: JsonObject): Uint8Array {
  const info = doc.info as JsonObject;
  const paths = Object.entries(doc.paths as JsonObject).map(([name, item]) => {
    const value: Msg = {};
    for (const [k, v] of Object.entries(item as JsonObject)) {
      if (k === "parameters") value.parameters = (v as JsonObject[]).map(parameter);
      else value[k] = operation(v as JsonObject);
    }
    return { name, value };
  });
  const message: Msg = {
    swagger: doc.swagger,
    info: { title: info.title, version: info.version },
    paths: { path: paths },
    definitions: {
      additional_properties: Object.entries(doc.definitions as JsonObject).map(([name, s]) => ({
        name,
        value: schema(s as JsonObject),
      })),
    },
    security: [{ additional_properties: [{ name: "BearerToken", value: { value: [] } }] }],
    security_definitions: {
      additional_properties: Object.entries(doc.securityDefinitions as JsonObject).map(
        ([name, s]) => ({ name, value: { api_key_security: s } }),
      ),
    },
  };
  const type = documentMessage();
  return type.encode(message).finish();
}
