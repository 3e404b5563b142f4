/**
 * A webhook `clientConfig` as kube-apiserver 1.32 validates it, for admission webhooks and CRD
 * conversion webhooks alike (k8s.io/apiserver pkg/util/webhook/validation.go ValidateWebhookURL
 * with https forced, ValidateWebhookService): exactly one of url and service, each valid.
 */
import { parseGoUrl } from "../internal/go-url.js";
import { isDNS1123Subdomain } from "../names/validation.js";
import type { FieldError } from "../status/field.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const FORM = "; desired format: https://host[/path]";

/** ValidateWebhookURL(path, url, forceHttps=true). */
export function webhookUrlErrors(raw: string, path: string): FieldError[] {
  const u = parseGoUrl(raw);
  if ("error" in u)
    return [
      {
        type: "FieldValueRequired",
        field: path,
        detail: `url must be a valid URL: ${u.error}${FORM}`,
      },
    ];
  const errs: FieldError[] = [];
  const invalid = (value: string, detail: string) =>
    errs.push({ type: "FieldValueInvalid", field: path, value, detail });
  if (u.scheme !== "https") invalid(u.scheme, `'https' is the only allowed URL scheme${FORM}`);
  if (!u.host) invalid(u.host, `host must be provided${FORM}`);
  if (u.user !== undefined) invalid(u.user, "user information is not permitted in the URL");
  if (u.fragment) invalid(u.fragment, "fragments are not permitted in the URL");
  if (u.rawQuery) invalid(u.rawQuery, "query parameters are not permitted in the URL");
  return errs;
}

/**
 * ValidateWebhookService. Kube's callers pass the service's name and namespace in the order
 * opposite to the function's parameters, so an empty namespace is reported as the name and the
 * other way round; reproduced, so the messages are the ones a cluster prints.
 */
export function webhookServiceErrors(service: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.namespace)
    errs.push({
      type: "FieldValueRequired",
      field: `${path}.name`,
      detail: "service name is required",
    });
  if (!service.name)
    errs.push({
      type: "FieldValueRequired",
      field: `${path}.namespace`,
      detail: "service namespace is required",
    });
  const port = service.port ?? 443;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535)
    errs.push({
      type: "FieldValueInvalid",
      field: `${path}.port`,
      value: port,
      detail: "port is not valid: must be between 1 and 65535, inclusive",
    });
  const urlPath = service.path;
  if (typeof urlPath !== "string" || urlPath === "" || urlPath === "/") return errs;
  const bad = (detail: string) =>
    errs.push({ type: "FieldValueInvalid", field: `${path}.path`, value: urlPath, detail });
  if (urlPath === "//") {
    bad("segment[0] may not be empty");
    return errs;
  }
  if (!urlPath.startsWith("/")) bad("must start with a '/'");
  let rest = urlPath.slice(1);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  rest.split("/").forEach((step, i) => {
    if (!step) bad(`segment[${i}] may not be empty`);
    else for (const e of isDNS1123Subdomain(step)) bad(`segment[${i}]: ${e}`);
  });
  return errs;
}

/** A clientConfig at `path`: exactly one of url and service, each valid. */
export function webhookClientConfigErrors(clientConfig: unknown, path: string): FieldError[] {
  const cc = isObj(clientConfig) ? clientConfig : {};
  const hasUrl = cc.url !== undefined && cc.url !== null;
  const hasService = cc.service !== undefined && cc.service !== null;
  if (hasUrl === hasService)
    return [
      {
        type: "FieldValueRequired",
        field: path,
        detail: "exactly one of url or service is required",
      },
    ];
  return hasUrl
    ? webhookUrlErrors(String(cc.url), `${path}.url`)
    : webhookServiceErrors(isObj(cc.service) ? cc.service : {}, `${path}.service`);
}
