/**
 * LimitRanges (`pkg/apis/core/v1/defaults.go` SetDefaults_LimitRangeItem): for Container items,
 * the default limit falls back to `max`, the default request to the default limit, then `min`.
 * Validation is ValidateLimitRange's: one item per type, a known type, no defaults for Pod
 * items, storage bounds for PersistentVolumeClaim items, and for each resource
 * min ≤ defaultRequest ≤ default ≤ max, a ratio of at least 1 and at most max/min, and equal
 * default and defaultRequest for resources that cannot be overcommitted.
 */
import { isQualifiedName } from "@opgen/apimachinery/names";
import { type FieldError, field } from "@opgen/apimachinery/status";
import { isObject, type JsonObject } from "../../api/types.js";
import {
  type GoQuantity,
  goQuantity,
  goQuantityValue,
  MAX_MILLI,
  milliValue,
  quantityString,
  value,
} from "../../rest/go-quantity.js";
import type { ResourceStrategy } from "../strategy.js";

const STANDARD_TYPES = new Set(["Pod", "Container", "PersistentVolumeClaim"]);
/** helper's standardResources (what a quota or a LimitRange may name without a domain). */
const STANDARD_RESOURCES = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "storage",
  "requests.storage",
  "services.nodeports",
  "services.loadbalancers",
]);
const CONTAINER_RESOURCES = new Set(["cpu", "memory", "ephemeral-storage"]);

const isNative = (name: string) => !name.includes("/") || name.includes("kubernetes.io/");

/** ValidateResourceName: a qualified name, standard unless it has a domain. */
export function resourceNameErrors(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => field.invalid(path, name, msg));
  if (errs.length) return errs;
  const standard =
    STANDARD_RESOURCES.has(name) ||
    name.startsWith("hugepages-") ||
    name.startsWith("requests.hugepages-");
  if (!name.includes("/") && !standard)
    return [field.invalid(path, name, "must be a standard resource type or fully qualified")];
  return [];
}

/** validateLimitRangeResourceName: Pod and Container items name container resources. */
function limitResourceNameErrors(type: unknown, name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (type !== "Pod" && type !== "Container") return errs;
  if (!name.includes("/")) {
    if (!CONTAINER_RESOURCES.has(name) && !name.startsWith("hugepages-"))
      errs.push(field.invalid(path, name, "must be a standard resource for containers"));
  } else if (
    !isNative(name) &&
    (name.startsWith("requests.") || isQualifiedName(`requests.${name}`).length > 0)
  ) {
    errs.push(field.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** helper.IsOvercommitAllowed: native resources other than hugepages, which are not extended. */
function overcommitAllowed(name: string): boolean {
  const native = !name.includes("/") || name.includes("kubernetes.io/");
  return native && !name.startsWith("hugepages-");
}

function quantities(v: unknown): Map<string, GoQuantity> {
  const out = new Map<string, GoQuantity>();
  for (const [k, q] of Object.entries(isObject(v) ? v : {})) {
    const g = goQuantity(q);
    if (g) out.set(k, g);
  }
  return out;
}

function validateItem(item: JsonObject, path: string, seen: Set<unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const type = item.type;
  if (typeof type === "string") {
    const invalid = isQualifiedName(type).map((msg) => field.invalid(`${path}.type`, type, msg));
    errs.push(...invalid);
    if (!invalid.length && !type.includes("/") && !STANDARD_TYPES.has(type))
      errs.push(
        field.invalid(`${path}.type`, type, "must be a standard limit type or fully qualified"),
      );
  }
  if (seen.has(type)) errs.push(field.duplicate(`${path}.type`, type));
  seen.add(type);

  const max = quantities(item.max);
  const min = quantities(item.min);
  const defaults = type === "Pod" ? new Map<string, GoQuantity>() : quantities(item.default);
  const defaultRequests =
    type === "Pod" ? new Map<string, GoQuantity>() : quantities(item.defaultRequest);
  const ratios = quantities(item.maxLimitRequestRatio);
  const names = (what: string) => {
    const list = item[what];
    for (const k of Object.keys(isObject(list) ? list : {}))
      errs.push(...limitResourceNameErrors(type, k, `${path}.${what}[${k}]`));
  };
  // In kube's order: max, min, default and defaultRequest, the storage bound, the ratios.
  names("max");
  names("min");
  if (type === "Pod") {
    if (isObject(item.default) && Object.keys(item.default).length)
      errs.push(field.forbidden(`${path}.default`, "may not be specified when `type` is 'Pod'"));
    if (isObject(item.defaultRequest) && Object.keys(item.defaultRequest).length)
      errs.push(
        field.forbidden(`${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"),
      );
  } else {
    names("default");
    names("defaultRequest");
  }
  if (type === "PersistentVolumeClaim" && !min.has("storage") && !max.has("storage"))
    errs.push(
      field.required(
        `${path}.limits`,
        "either minimum or maximum storage value is required, but neither was provided",
      ),
    );
  names("maxLimitRequestRatio");

  const keys = new Set([
    ...max.keys(),
    ...min.keys(),
    ...defaults.keys(),
    ...defaultRequests.keys(),
    ...ratios.keys(),
  ]);
  const s = quantityString;
  for (const k of keys) {
    const lo = min.get(k);
    const hi = max.get(k);
    const def = defaults.get(k);
    const req = defaultRequests.get(k);
    const ratio = ratios.get(k);
    const at = (what: string) => `${path}.${what}[${k}]`;
    if (lo && hi && lo.q.cmp(hi.q) > 0)
      errs.push(
        field.invalid(
          at("min"),
          goQuantityValue(lo),
          `min value ${s(lo)} is greater than max value ${s(hi)}`,
        ),
      );
    if (req && lo && lo.q.cmp(req.q) > 0)
      errs.push(
        field.invalid(
          at("defaultRequest"),
          goQuantityValue(req),
          `min value ${s(lo)} is greater than default request value ${s(req)}`,
        ),
      );
    if (req && hi && req.q.cmp(hi.q) > 0)
      errs.push(
        field.invalid(
          at("defaultRequest"),
          goQuantityValue(req),
          `default request value ${s(req)} is greater than max value ${s(hi)}`,
        ),
      );
    if (req && def && req.q.cmp(def.q) > 0)
      errs.push(
        field.invalid(
          at("defaultRequest"),
          goQuantityValue(req),
          `default request value ${s(req)} is greater than default limit value ${s(def)}`,
        ),
      );
    if (def && lo && lo.q.cmp(def.q) > 0)
      errs.push(
        field.invalid(
          at("default"),
          goQuantityValue(lo),
          `min value ${s(lo)} is greater than default value ${s(def)}`,
        ),
      );
    // kube reports the max as the bad value here.
    if (def && hi && def.q.cmp(hi.q) > 0)
      errs.push(
        field.invalid(
          at("default"),
          goQuantityValue(hi),
          `default value ${s(def)} is greater than max value ${s(hi)}`,
        ),
      );
    if (ratio && ratio.q.cmp(goQuantity("1")!.q) < 0)
      errs.push(
        field.invalid(
          at("maxLimitRequestRatio"),
          goQuantityValue(ratio),
          `ratio ${s(ratio)} is less than 1`,
        ),
      );
    if (ratio && lo && hi) {
      // In milli-units when none overflows, the ratio divided back to a plain number.
      const milli = [ratio, lo, hi].every((g) => value(g) < MAX_MILLI);
      const at3 = (g: GoQuantity) => Number(milli ? milliValue(g) : value(g));
      const ratioValue = milli ? at3(ratio) / 1000 : at3(ratio);
      const bound = at3(hi) / at3(lo);
      if (ratioValue > bound)
        errs.push(
          field.invalid(
            at("maxLimitRequestRatio"),
            goQuantityValue(ratio),
            `ratio ${s(ratio)} is greater than max/min = ${bound.toFixed(6)}`,
          ),
        );
    }
    if (!overcommitAllowed(k) && def && req && def.q.cmp(req.q) !== 0)
      errs.push(
        field.invalid(
          at("defaultRequest"),
          goQuantityValue(req),
          `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`,
        ),
      );
  }
  return errs;
}

export const limitRanges: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const items = (isObject(o.spec) ? o.spec.limits : undefined) as JsonObject[] | undefined;
    for (const item of items ?? []) {
      if (!isObject(item) || item.type !== "Container") continue;
      const def = { ...((item.default as JsonObject | undefined) ?? {}) };
      const req = { ...((item.defaultRequest as JsonObject | undefined) ?? {}) };
      for (const [k, v] of Object.entries((item.max as JsonObject | undefined) ?? {}))
        if (!(k in def)) def[k] = v;
      for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
      for (const [k, v] of Object.entries((item.min as JsonObject | undefined) ?? {}))
        if (!(k in req)) req[k] = v;
      if (Object.keys(def).length) item.default = def;
      if (Object.keys(req).length) item.defaultRequest = req;
    }
  },
  validate(o) {
    const items = isObject(o.spec) ? o.spec.limits : undefined;
    if (!Array.isArray(items)) return [];
    const seen = new Set<unknown>();
    return items.flatMap((item, i) =>
      isObject(item) ? validateItem(item, `spec.limits[${i}]`, seen) : [],
    );
  },
};
