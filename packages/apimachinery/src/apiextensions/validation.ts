/**
 * ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate
 * (`apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go`): what
 * kube-apiserver checks when a CRD is created or updated, with its field paths and messages.
 * The one CRD validator: `opgen manifests` runs it on every CRD it assembles (reporting each
 * error at the marker it comes from) and envtest on every CRD write (a 422 as kube answers).
 */
import { isDNS1123Label, isDNS1123Subdomain } from "../names/validation.js";
import { deepEqual, isObject } from "../schema/json.js";
import type { FieldError } from "../status/index.js";
import { printerColumnErrors, subresourceErrors } from "./columns.js";
import { conversionErrors } from "./conversion.js";
import { schemaStructuralErrors } from "./schema.js";
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  RuleChecks,
} from "./types.js";

/**
 * The errors kube-apiserver answers a CRD create (no `old`) or update with (`old` the stored
 * CRD), as a 422's causes, rules checked with `rules` (index.ts passes the CEL checks; core.ts
 * none, for CRDs without rules). The CRD is validated as given: default it first
 * (defaultCustomResourceDefinition), as the server does.
 */
export function crdValidationErrors(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition | undefined,
  rules: RuleChecks | undefined,
): FieldError[] {
  if (!isObject(crd.spec)) return [{ type: "FieldValueRequired", field: "spec", detail: "" }];
  return [
    ...specErrors(crd, old, rules),
    ...conversionErrors(crd),
    ...(old ? updateErrors(crd, old) : []),
  ];
}

function specErrors(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition | undefined,
  rules: RuleChecks | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec;
  if (!isObject(spec)) return [{ type: "FieldValueRequired", field: "spec", detail: "" }];
  const group = spec.group ?? "";
  const names = (spec.names ?? {}) as CustomResourceDefinitionNames;
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
    errs.push(...printerColumnErrors(v, p), ...subresourceErrors(v, p));
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) {
      errs.push({
        type: "FieldValueRequired",
        field: `${p}.schema.openAPIV3Schema`,
        detail: "schemas are required",
      });
    } else {
      const before = errs.length;
      schemaStructuralErrors(schema, `${p}.schema.openAPIV3Schema`, errs, true, rules);
      // Rule costs are estimated only over a valid schema whose rules compile.
      if (errs.length === before) {
        const unchanged = old?.spec?.versions?.some(
          (o) => o.name === v.name && deepEqual(o.schema?.openAPIV3Schema, schema),
        );
        // Without the CEL checks (core.ts) the schema has no rules: nothing costs anything.
        const costs =
          rules?.costErrors(schema, `${p}.schema.openAPIV3Schema`, {
            suppressPerExpression: unchanged === true,
          }) ?? [];
        for (const e of costs) {
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

/** What an update may not change: the group, the scope, and the versions already stored. */
function updateErrors(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  if (old.spec?.group !== crd.spec?.group) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.group",
      value: crd.spec?.group ?? "",
      detail: "field is immutable",
    });
  }
  if (old.spec?.scope !== crd.spec?.scope) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.scope",
      value: crd.spec?.scope ?? "",
      detail: "field is immutable",
    });
  }
  for (const sv of old.status?.storedVersions ?? []) {
    if (!crd.spec?.versions?.some((v) => v.name === sv)) {
      errs.push({
        type: "FieldValueInvalid",
        field: "status.storedVersions",
        value: old.status?.storedVersions ?? [],
        detail: `must have the storage version ${sv}`,
      });
    }
  }
  return errs;
}
