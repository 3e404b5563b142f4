/**
 * Validation of a webhook `clientConfig`, shared by the webhook configurations and CRD
 * conversion (`admissionregistration/validation.go` validateWebhookClientConfig,
 * `apiserver: pkg/util/webhook/validation.go` ValidateWebhookURL/ValidateWebhookService).
 */
import type { FieldError } from "@opgen/apimachinery/status";
import { dnsSubdomainErrors } from "../../api/meta.js";
import { isObject, type JsonObject } from "../../api/types.js";

const form = "; desired format: https://host[/path]";

function urlErrors(raw: string, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return [{ type: "FieldValueRequired", field, detail: `url must be a valid URL${form}` }];
  }
  const scheme = u.protocol.replace(/:$/, "");
  if (scheme !== "https") {
    errs.push({
      type: "FieldValueInvalid",
      field,
      value: scheme,
      detail: `'https' is the only allowed URL scheme${form}`,
    });
  }
  if (!u.host)
    errs.push({
      type: "FieldValueInvalid",
      field,
      value: "",
      detail: `host must be specified${form}`,
    });
  if (u.username || u.password) {
    errs.push({
      type: "FieldValueInvalid",
      field,
      value: u.password ? `${u.username}:${u.password}` : u.username,
      detail: "user information is not permitted in the URL",
    });
  }
  if (u.hash) {
    errs.push({
      type: "FieldValueInvalid",
      field,
      value: u.hash.slice(1),
      detail: "fragments are not permitted in the URL",
    });
  }
  if (u.search) {
    errs.push({
      type: "FieldValueInvalid",
      field,
      value: u.search.slice(1),
      detail: "query parameters are not permitted in the URL",
    });
  }
  return errs;
}

function serviceErrors(s: JsonObject, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name)
    errs.push({
      type: "FieldValueRequired",
      field: `${field}.name`,
      detail: "service name is required",
    });
  if (!s.namespace) {
    errs.push({
      type: "FieldValueRequired",
      field: `${field}.namespace`,
      detail: "service namespace is required",
    });
  }
  const port = s.port ?? 443;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
    errs.push({
      type: "FieldValueInvalid",
      field: `${field}.port`,
      value: port,
      detail: "port is not valid: must be between 1 and 65535, inclusive",
    });
  }
  const path = s.path;
  if (typeof path !== "string" || path === "" || path === "/") return errs;
  const bad = (detail: string) =>
    errs.push({ type: "FieldValueInvalid", field: `${field}.path`, value: path, detail });
  if (path === "//") {
    bad("segment[0] may not be empty");
    return errs;
  }
  if (!path.startsWith("/")) bad("must start with a '/'");
  let rest = path.slice(1);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  rest.split("/").forEach((step, i) => {
    if (!step) bad(`segment[${i}] may not be empty`);
    else for (const m of dnsSubdomainErrors(step)) bad(`segment[${i}]: ${m}`);
  });
  return errs;
}

/** Exactly one of url and service, each valid. */
export function clientConfigErrors(cc: JsonObject, field: string): FieldError[] {
  const hasUrl = typeof cc.url === "string";
  const hasService = isObject(cc.service);
  if (hasUrl === hasService) {
    return [
      { type: "FieldValueRequired", field, detail: "exactly one of url or service is required" },
    ];
  }
  return hasUrl
    ? urlErrors(cc.url as string, `${field}.url`)
    : serviceErrors(cc.service as JsonObject, `${field}.service`);
}
