/**
 * apimachinery's `ValidateObjectMeta` for a create, with kube's messages: name (or generateName,
 * checked as a prefix), namespace for the resource's scope, generation, labels, annotations
 * (qualified keys, 256 KiB in all), owner references and finalizers. envtest's admission and
 * `opgen manifests`' sample checks share it.
 */
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
} from "../names/validation.js";
import { type FieldError, field } from "../status/field.js";

/**
 * The name function a resource's strategy validates with (NameIsDNSSubdomain for every CR;
 * `any` for kinds that accept every name, as CertificateSigningRequests do).
 */
export type NameRule = "subdomain" | "label" | "path" | "any";

export interface ObjectMetaOptions {
  namespaced: boolean;
  nameRule: NameRule;
  /** An update: generateName is not checked (it only matters when a create generates the name). */
  update?: boolean;
}

/** TotalAnnotationSizeLimitB: keys and values together, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The name function of `rule`; a prefix (generateName) may end in '-', as kube masks it. */
export function nameErrors(rule: NameRule, name: string, prefix = false): string[] {
  if (rule === "any") return [];
  if (rule === "path") return isValidPathSegmentName(name);
  const masked = prefix && name.length > 1 && name.endsWith("-") ? `${name.slice(0, -1)}a` : name;
  return rule === "label" ? isDNS1123Label(masked) : isDNS1123Subdomain(masked);
}

/** The errors creating an object with this `metadata` gets (none when valid). */
export function objectMetaErrors(metadata: unknown, opts: ObjectMetaOptions): FieldError[] {
  const errs: FieldError[] = [];
  const meta = isRecord(metadata) ? metadata : {};
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const name = str(meta.name);
  const generateName = str(meta.generateName);
  const namespace = str(meta.namespace);
  if (generateName && !opts.update) {
    for (const msg of nameErrors(opts.nameRule, generateName, true))
      errs.push(field.invalid("metadata.generateName", generateName, msg));
  }
  if (!name) {
    if (!generateName)
      errs.push(field.required("metadata.name", "name or generateName is required"));
  } else {
    for (const msg of nameErrors(opts.nameRule, name))
      errs.push(field.invalid("metadata.name", name, msg));
  }
  if (opts.namespaced) {
    if (!namespace) errs.push(field.required("metadata.namespace"));
    else
      for (const msg of isDNS1123Label(namespace))
        errs.push(field.invalid("metadata.namespace", namespace, msg));
  } else if (namespace) {
    errs.push(field.forbidden("metadata.namespace", "not allowed on this type"));
  }
  if (typeof meta.generation === "number" && meta.generation < 0)
    errs.push(
      field.invalid("metadata.generation", meta.generation, "must be greater than or equal to 0"),
    );
  errs.push(...labelErrors(meta.labels), ...annotationErrors(meta.annotations));
  errs.push(...ownerReferenceErrors(meta.ownerReferences), ...finalizerErrors(meta.finalizers));
  return errs;
}

/** ValidateLabels: qualified-name keys, label values. */
function labelErrors(labels: unknown): FieldError[] {
  if (labels === undefined || labels === null) return [];
  if (!isRecord(labels)) return [field.typeInvalid("metadata.labels", labels)];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const msg of isQualifiedName(k)) errs.push(field.invalid("metadata.labels", k, msg));
    for (const msg of typeof v === "string" ? isValidLabelValue(v) : ["must be a string"])
      errs.push(field.invalid("metadata.labels", v, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names (case-insensitively), 256 KiB in all. */
function annotationErrors(annotations: unknown): FieldError[] {
  if (!isRecord(annotations)) return [];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
    for (const msg of isQualifiedName(k.toLowerCase()))
      errs.push(field.invalid("metadata.annotations", k, msg));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT)
    errs.push(field.tooLong("metadata.annotations", "", TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
}

/** ValidateOwnerReferences: every reference complete, at most one controller. */
function ownerReferenceErrors(refs: unknown): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  const list = refs.filter(isRecord) as OwnerReference[];
  list.forEach((r, i) => {
    const p = `metadata.ownerReferences[${i}]`;
    if (!r.apiVersion)
      errs.push(field.invalid(`${p}.apiVersion`, r.apiVersion ?? "", "version must not be empty"));
    if (!r.kind) errs.push(field.invalid(`${p}.kind`, r.kind ?? "", "kind must not be empty"));
    if (!r.name) errs.push(field.invalid(`${p}.name`, r.name ?? "", "name must not be empty"));
    if (!r.uid) errs.push(field.invalid(`${p}.uid`, r.uid ?? "", "uid must not be empty"));
  });
  const controllers = list.filter((r) => r.controller);
  if (controllers.length > 1) {
    const names = controllers.map((r) => `${r.kind}/${r.name}`);
    errs.push(
      field.invalid(
        "metadata.ownerReferences",
        refs,
        `Only one reference can have Controller set to true. Found "true" in references for ${names.join(" and ")}`,
      ),
    );
  }
  return errs;
}

/** ValidateFinalizers: each a qualified name. */
function finalizerErrors(finalizers: unknown): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const errs: FieldError[] = [];
  finalizers.forEach((f, i) => {
    for (const msg of isQualifiedName(String(f)))
      errs.push(field.invalid(`metadata.finalizers[${i}]`, f, msg));
  });
  return errs;
}
