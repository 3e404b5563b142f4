/**
 * CustomResourceDefinitions: their defaults (`apiextensions/v1/defaults.go`), the validation
 * kube-apiserver applies on create/update (names, versions, structural schemas). What an accepted
 * CRD serves is registry/custom/'s.
 */

import { crdRuleCostErrors } from "@opgen/apimachinery/cel";
import { isDNS1123Label, isDNS1123Subdomain } from "@opgen/apimachinery/names";
import { prune, validateSchema } from "@opgen/apimachinery/schema";
import type { FieldError } from "@opgen/apimachinery/status";
import {
  deepClone,
  deepEqual,
  isObject,
  type JsonObject,
  type KubeObject,
  type PrinterColumn,
  type Schema,
} from "../api/types.js";
import { schemaExpressionErrors } from "./expressions.js";

export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: {
    status?: JsonObject;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: { jsonPath: string }[];
}

export interface Crd extends KubeObject {
  spec: {
    group: string;
    names: CrdNames;
    scope: string;
    versions: CrdVersion[];
    conversion?: JsonObject;
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: JsonObject[];
    acceptedNames?: CrdNames;
    storedVersions?: string[];
  };
}

/** SetDefaults_CustomResourceDefinition and friends. */
export function defaultCrd(crd: Crd): void {
  const spec = crd.spec;
  if (!isObject(spec)) return;
  const names = spec.names;
  if (isObject(names) && typeof names.kind === "string") {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind) names.listKind = `${names.kind}List`;
  }
  if (!spec.conversion) spec.conversion = { strategy: "None" };
}

// The JSON schema types a CRD may declare (apiextensions validation's openapiTypes).
const OPENAPI_TYPES = ["array", "boolean", "integer", "number", "object", "string"];

/**
 * Structural-schema rules, plus the checks on defaults (`apiext: validation.go
 * validateStructuralDefaults`): a default must be valid against its own node's schema once
 * pruned, and list-map keys must be required or defaulted. `dataPath` is the node's path in
 * objects (`spec.replicas`), used in the default's validation message.
 */
function schemaStructuralErrors(
  s: Schema,
  path: string,
  errs: FieldError[],
  root: boolean,
  dataPath = "",
): void {
  const intOrString = s["x-kubernetes-int-or-string"] === true;
  const preserve = s["x-kubernetes-preserve-unknown-fields"] === true;
  if (!s.type && !intOrString && !preserve && !root) {
    errs.push({
      type: "FieldValueRequired",
      field: `${path}.type`,
      detail: "must not be empty for specified object fields",
    });
  }
  if (root && s.type !== "object") {
    errs.push({
      type: "FieldValueInvalid",
      field: `${path}.type`,
      value: s.type ?? "",
      detail: "must be object at the root",
    });
  }
  if (s.type !== undefined && !OPENAPI_TYPES.includes(s.type)) {
    errs.push({
      type: "FieldValueNotSupported",
      field: `${path}.type`,
      value: s.type,
      detail: `supported values: ${OPENAPI_TYPES.map((t) => JSON.stringify(t)).join(", ")}`,
    });
  }
  errs.push(...schemaExpressionErrors(s, path, root));
  if (s.type === "array" && !s.items) {
    errs.push({ type: "FieldValueRequired", field: `${path}.items`, detail: "must be specified" });
  }
  if (s.properties && isObject(s.additionalProperties)) {
    errs.push({
      type: "FieldValueForbidden",
      field: `${path}.additionalProperties`,
      detail: "additionalProperties and properties are mutual exclusive",
    });
  }
  if (s["x-kubernetes-list-type"] === "map" && !s["x-kubernetes-list-map-keys"]?.length) {
    errs.push({
      type: "FieldValueRequired",
      field: `${path}.x-kubernetes-list-map-keys`,
      detail: "must not be empty if x-kubernetes-list-type is map",
    });
  }
  if (s["x-kubernetes-list-type"] === "map" && isObject(s.items)) {
    const item = s.items as Schema;
    for (const key of s["x-kubernetes-list-map-keys"] ?? []) {
      const prop = item.properties?.[key];
      if (!prop) {
        errs.push({
          type: "FieldValueRequired",
          field: `${path}.items.properties[${key}]`,
          detail:
            "entries in x-kubernetes-list-map-keys must correspond to required or defaulted properties",
        });
      } else if (!(item.required ?? []).includes(key) && prop.default === undefined) {
        errs.push({
          type: "FieldValueRequired",
          field: `${path}.items.properties[${key}]`,
          detail:
            "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
        });
      }
    }
  }
  if (s.default !== undefined && !root) {
    const value = deepClone(s.default);
    if (isObject(value)) prune(value, s, false);
    if (!deepEqual(value, s.default)) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${path}.default`,
        value: s.default,
        detail: "must not have unknown fields",
      });
    } else {
      for (const e of validateSchema(value, s, dataPath)) {
        errs.push({ ...e, field: `${path}.default` });
      }
    }
  }
  for (const [k, child] of Object.entries(s.properties ?? {})) {
    if (isObject(child)) {
      schemaStructuralErrors(
        child as Schema,
        `${path}.properties[${k}]`,
        errs,
        false,
        dataPath ? `${dataPath}.${k}` : k,
      );
    }
  }
  if (isObject(s.additionalProperties)) {
    schemaStructuralErrors(
      s.additionalProperties,
      `${path}.additionalProperties`,
      errs,
      false,
      `${dataPath}[*]`,
    );
  }
  if (isObject(s.items))
    schemaStructuralErrors(s.items as Schema, `${path}.items`, errs, false, `${dataPath}[*]`);
}

/**
 * ValidateCustomResourceDefinition: the checks a client hits in practice. `old` is the stored
 * CRD on update: a version whose schema did not change keeps rules over the per-expression
 * cost limit (only the total is checked), as kube does across upgrades.
 */
export function validateCrd(crd: Crd, old?: Crd): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec;
  if (!isObject(spec)) return [{ type: "FieldValueRequired", field: "spec", detail: "" }];
  const group = spec.group ?? "";
  const names = (spec.names ?? {}) as CrdNames;
  const name = crd.metadata?.name ?? "";
  if (name !== `${names.plural}.${group}`) {
    errs.push({
      type: "FieldValueInvalid",
      field: "metadata.name",
      value: name,
      detail: 'must be spec.names.plural+"."+spec.group',
    });
  }
  if (!group) errs.push({ type: "FieldValueRequired", field: "spec.group", detail: "" });
  else {
    for (const m of isDNS1123Subdomain(group)) {
      errs.push({ type: "FieldValueInvalid", field: "spec.group", value: group, detail: m });
    }
    if (group.split(".").length < 2) {
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.group",
        value: group,
        detail: "should be a domain with at least one dot",
      });
    }
  }
  if (spec.scope !== "Namespaced" && spec.scope !== "Cluster") {
    errs.push({
      type: "FieldValueNotSupported",
      field: "spec.scope",
      value: spec.scope ?? "",
      detail: 'supported values: "Cluster", "Namespaced"',
    });
  }
  if (!names.plural)
    errs.push({ type: "FieldValueRequired", field: "spec.names.plural", detail: "" });
  else {
    for (const m of isDNS1123Label(names.plural)) {
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.names.plural",
        value: names.plural,
        detail: m,
      });
    }
  }
  if (!names.kind) errs.push({ type: "FieldValueRequired", field: "spec.names.kind", detail: "" });
  const versions = spec.versions ?? [];
  if (versions.length === 0) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.versions",
      value: versions,
      detail: "must have exactly one version marked as storage version",
    });
  } else {
    const storage = versions.filter((v) => v.storage).length;
    if (storage !== 1) {
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.versions",
        value: versions,
        detail: "must have exactly one version marked as storage version",
      });
    }
    if (!versions.some((v) => v.served)) {
      errs.push({
        type: "FieldValueInvalid",
        field: "spec.versions",
        value: versions,
        detail: "must have at least one version marked as served",
      });
    }
  }
  versions.forEach((v, i) => {
    const p = `spec.versions[${i}]`;
    for (const m of isDNS1123Label(v.name ?? "")) {
      errs.push({ type: "FieldValueInvalid", field: `${p}.name`, value: v.name ?? "", detail: m });
    }
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) {
      errs.push({
        type: "FieldValueRequired",
        field: `${p}.schema.openAPIV3Schema`,
        detail: "schemas are required",
      });
    } else {
      const before = errs.length;
      schemaStructuralErrors(schema, `${p}.schema.openAPIV3Schema`, errs, true);
      // Rule costs are estimated only over a valid schema whose rules compile.
      if (errs.length === before) {
        const unchanged = old?.spec?.versions?.some(
          (o) => o.name === v.name && deepEqual(o.schema?.openAPIV3Schema, schema),
        );
        for (const e of crdRuleCostErrors(schema, `${p}.schema.openAPIV3Schema`, {
          suppressPerExpression: unchanged === true,
        })) {
          errs.push({ type: "FieldValueForbidden", field: e.field, detail: e.detail });
        }
      }
    }
  });
  if (spec.preserveUnknownFields === true) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.preserveUnknownFields",
      value: true,
      detail: "must be false in order to use defaults in the schema",
    });
  }
  return errs;
}
