/**
 * CertificateSigningRequest validation as kube-apiserver 1.32 runs it
 * (`pkg/apis/certificates/validation`): the request must be a signed PKCS#10 PEM, usages known
 * and unique, the signer name `<domain>/<path>`, expirationSeconds at least 600, conditions well
 * formed (Approved and Denied exclusive), status.certificate PEM CERTIFICATE blocks only; an update
 * may not remove Approved/Denied/Failed conditions, only the approval subresource may add or change
 * Approved/Denied, and only the status subresource may set the certificate, once. Bad data already
 * stored is tolerated on update, as kube's compatibility options do.
 */
import { X509Certificate } from "node:crypto";
import { parseCsrPem, pemBlocks, USAGE_NAMES } from "@opgen/apimachinery/certs";
import { isDNS1123Label, isDNS1123Subdomain } from "@opgen/apimachinery/names";
import { type FieldError, field, goValue } from "@opgen/apimachinery/status";
import {
  deepEqual,
  isObject,
  type JsonObject,
  type KubeObject,
  objectAt,
} from "../../api/types.js";

export const LEGACY_UNKNOWN_SIGNER = "kubernetes.io/legacy-unknown";

/** Every usage `spec.usages` may name (USAGE_NAMES is sorted, as kube lists them in the error). */
const validUsages = new Set<string>(USAGE_NAMES);

/** The condition types whose status may only be True. */
const TRUE_ONLY_TYPES = new Set(["Approved", "Denied", "Failed"]);

interface Options {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

/** A CSR's fields as validation reads them (bytes fields decoded from base64). */
export interface CsrView {
  request: Buffer;
  /** No spec.request at all: Go's nil slice, which a field error prints as `[]byte(nil)`. */
  requestNil: boolean;
  usages: string[];
  signerName: string;
  expirationSeconds: number | undefined;
  conditions: JsonObject[];
  certificate: Buffer;
}

export function viewOf(o: KubeObject): CsrView {
  const spec = objectAt(o.spec);
  const status = objectAt(o.status);
  return {
    request: Buffer.from(typeof spec.request === "string" ? spec.request : "", "base64"),
    requestNil: typeof spec.request !== "string",
    usages: Array.isArray(spec.usages) ? spec.usages.map(String) : [],
    signerName: typeof spec.signerName === "string" ? spec.signerName : "",
    expirationSeconds:
      typeof spec.expirationSeconds === "number" ? spec.expirationSeconds : undefined,
    conditions: Array.isArray(status.conditions)
      ? status.conditions.filter(isObject).map((c) => c as JsonObject)
      : [],
    certificate: Buffer.from(
      typeof status.certificate === "string" ? status.certificate : "",
      "base64",
    ),
  };
}

/** Go's `%#v` of a byte slice, as a field error shows spec.request. */
function goBytes(b: Buffer, nil: boolean): ReturnType<typeof goValue> {
  if (nil) return goValue("[]byte(nil)");
  return goValue(`[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(", ")}}`);
}

/** status.certificate's rules: PEM CERTIFICATE blocks without headers, each parsing. */
export function certificateError(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = pemBlocks(pem);
  for (const block of blocks) {
    if (block.type !== "CERTIFICATE")
      return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length > 0) return "no PEM block headers are permitted";
    try {
      new X509Certificate(block.bytes);
    } catch {
      return "x509: malformed certificate";
    }
  }
  if (blocks.length === 0) return "must contain at least one CERTIFICATE PEM block";
  return undefined;
}

/** apivalidation.ValidateSignerName. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName.length === 0) return [field.required(path, "")];
  const segments = signerName.split("/");
  if (segments.length !== 2) {
    return [
      field.invalid(
        path,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  }
  const [domain, name] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(field.tooLong(path, "", 253));
  const domainLabels = domain.split(".");
  for (const label of domainLabels) {
    const problems = isDNS1123Label(label);
    if (problems.length === 0) continue;
    for (const p of problems)
      errs.push(field.invalid(path, domain, `validating label ${JSON.stringify(label)}: ${p}`));
    break;
  }
  if (domainLabels.length < 2)
    errs.push(
      field.invalid(
        path,
        domain,
        "should be a domain with at least two segments separated by dots",
      ),
    );
  for (const label of name.split(".")) {
    const problems = isDNS1123Subdomain(label);
    if (problems.length === 0) continue;
    for (const p of problems)
      errs.push(field.invalid(path, name, `validating label ${JSON.stringify(label)}: ${p}`));
    break;
  }
  const max = 253 + (253 + 63 + 1) + 1;
  if (signerName.length > max) errs.push(field.tooLong(path, "", max));
  return errs;
}

function validateConditions(csr: CsrView, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  let approved = false;
  let denied = false;
  csr.conditions.forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    const type = typeof c.type === "string" ? c.type : "";
    const status = typeof c.status === "string" ? c.status : "";
    if (!opts.allowEmptyConditionType && type === "") errs.push(field.required(`${path}.type`, ""));
    const allowed = TRUE_ONLY_TYPES.has(type) ? ["True"] : ["False", "True", "Unknown"];
    if (status === "") errs.push(field.required(`${path}.status`, ""));
    else if (!allowed.includes(status))
      errs.push(field.notSupported(`${path}.status`, status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      const exclusive = "Approved and Denied conditions are mutually exclusive";
      if (type === "Approved") {
        approved = true;
        if (denied) errs.push(field.invalid(`${path}.type`, type, exclusive));
      } else if (type === "Denied") {
        denied = true;
        if (approved) errs.push(field.invalid(`${path}.type`, type, exclusive));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(field.duplicate(`${path}.type`, type));
      seen.add(type);
    }
  });
  return errs;
}

function validateCsr(csr: CsrView, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const parsed = parseCsrPem(csr.request);
  const requestError = typeof parsed === "string" ? parsed : parsed.checkSignature();
  if (requestError)
    errs.push(field.invalid("spec.request", goBytes(csr.request, csr.requestNil), requestError));
  if (csr.usages.length === 0) errs.push(field.required("spec.usages", ""));
  if (!opts.allowUnknownUsages) {
    csr.usages.forEach((u, i) => {
      if (!validUsages.has(u)) errs.push(field.notSupported(`spec.usages[${i}]`, u, USAGE_NAMES));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    csr.usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(field.duplicate(`spec.usages[${i}]`, u));
      seen.add(u);
    });
  }
  if (!opts.allowLegacySignerName && csr.signerName === LEGACY_UNKNOWN_SIGNER) {
    errs.push(
      field.invalid(
        "spec.signerName",
        csr.signerName,
        "the legacy signerName is not allowed via this API version",
      ),
    );
  } else errs.push(...validateSignerName("spec.signerName", csr.signerName));
  if (csr.expirationSeconds !== undefined && csr.expirationSeconds < 600) {
    errs.push(
      field.invalid(
        "spec.expirationSeconds",
        csr.expirationSeconds,
        "may not specify a duration less than 600 seconds (10 minutes)",
      ),
    );
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const bad = certificateError(csr.certificate);
    if (bad) errs.push(field.invalid("status.certificate", "<certificate data>", bad));
  }
  return errs;
}

function hasDuplicates(values: readonly unknown[]): boolean {
  return new Set(values).size !== values.length;
}

function optionsFor(next: CsrView, old: CsrView | undefined): Options {
  const oldTypes = old?.conditions.map((c) => c.type) ?? [];
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes("Approved") && oldTypes.includes("Denied"),
    allowLegacySignerName: old?.signerName === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: old !== undefined && hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.some((t) => t === undefined || t === ""),
    allowArbitraryCertificate:
      old !== undefined &&
      (next.certificate.equals(old.certificate) || certificateError(old.certificate) !== undefined),
    allowUnknownUsages: old?.usages.some((u) => !validUsages.has(u)) ?? false,
    allowDuplicateUsages: old !== undefined && hasDuplicates(old.usages),
  };
}

/** ValidateCertificateSigningRequestCreate, without ObjectMeta (validated by the caller). */
export function validateCsrCreate(o: KubeObject): FieldError[] {
  const csr = viewOf(o);
  return validateCsr(csr, optionsFor(csr, undefined));
}

/**
 * ValidateCertificateSigningRequest{,Status,Approval}Update by subresource, without ObjectMeta:
 * the status subresource may set the certificate, the approval one the Approved/Denied conditions.
 */
export function validateCsrUpdate(
  o: KubeObject,
  oldObject: KubeObject,
  subresource: string | undefined,
): FieldError[] {
  const next = viewOf(o);
  const old = viewOf(oldObject);
  const opts = optionsFor(next, old);
  if (subresource === "status") opts.allowSettingCertificate = true;
  if (subresource === "approval") opts.allowSettingApprovalConditions = true;
  const errs = validateCsr(next, opts);
  const ofType = (v: CsrView, t: string) => v.conditions.filter((c) => c.type === t);
  for (const t of ["Approved", "Denied", "Failed"]) {
    if (ofType(next, t).length < ofType(old, t).length)
      errs.push(
        field.forbidden(
          "status.conditions",
          `updates may not remove a condition of type ${JSON.stringify(t)}`,
        ),
      );
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ["Approved", "Denied"]) {
      const before = ofType(old, t);
      const after = ofType(next, t);
      if (after.length > before.length) {
        errs.push(
          field.forbidden(
            "status.conditions",
            `updates may not add a condition of type ${JSON.stringify(t)}`,
          ),
        );
      } else if (after.length === before.length && !deepEqual(before, after)) {
        // kube appends a go-cmp diff of the two condition lists to this message.
        errs.push(
          field.forbidden(
            "status.conditions",
            `updates may not modify a condition of type ${JSON.stringify(t)}`,
          ),
        );
      }
    }
  }
  if (!next.certificate.equals(old.certificate)) {
    if (!opts.allowSettingCertificate)
      errs.push(field.forbidden("status.certificate", "updates may not set certificate content"));
    else if (old.certificate.length > 0)
      errs.push(
        field.forbidden(
          "status.certificate",
          "updates may not modify existing certificate content",
        ),
      );
  }
  return errs;
}
