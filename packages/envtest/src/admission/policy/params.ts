/**
 * The parameter objects a binding hands its policy (`generic/policy_dispatcher.go`
 * CollectParams): none when the policy has no paramKind or the binding no paramRef, else the
 * object paramRef names or every object its selector selects, in paramRef's namespace or the
 * request's; nothing found is an error under `parameterNotFoundAction: Deny` and skips the
 * binding under Allow. Objects are read in the storage version and presented in the paramKind's
 * (a CRD whose versions differ in shape is not converted for this).
 */
import { labelSelectorAsSelector } from "@opgen/apimachinery/selectors";
import { bucketOf, type Registry } from "../../api/registry.js";
import { deepClone, type KubeObject, type ResourceInfo } from "../../api/types.js";
import type { Store } from "../../store/store.js";
import { ConfigurationError } from "./matching.js";
import type { ParamRef, PolicySpec } from "./source.js";

export type ParamKind = NonNullable<PolicySpec["paramKind"]>;

/** `group/version, Kind=kind` as Go prints a GroupVersionKind. */
export function gvkString(k: ParamKind): string {
  const apiVersion = k.apiVersion ?? "";
  const gv = apiVersion.includes("/") ? apiVersion : `/${apiVersion}`;
  return `${gv}, Kind=${k.kind ?? ""}`;
}

/** The resource a paramKind names, or undefined when the server does not serve it. */
export function paramResource(registry: Registry, k: ParamKind): ResourceInfo | undefined {
  const info = registry.lookupKind(k.apiVersion ?? "", k.kind ?? "");
  const version = (k.apiVersion ?? "").split("/").pop();
  return info?.versions.some((v) => v.name === version && v.served) ? info : undefined;
}

/** The params to evaluate the policy with (`null`: evaluated once, without params). */
export function collectParams(
  store: Store,
  kind: ParamKind | undefined,
  info: ResourceInfo | undefined,
  ref: ParamRef | undefined,
  namespace: string,
): (KubeObject | null)[] {
  if (!kind || !ref) return [null];
  if (!info) throw new ConfigurationError(`paramKind kind \`${gvkString(kind)}\` not known`);
  let ns: string | undefined;
  if (info.namespaced) {
    ns = ref.namespace || namespace;
    if (!ns)
      throw new ConfigurationError(
        "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
      );
  } else if (ref.namespace) {
    throw new ConfigurationError(
      "paramRef.namespace must not be provided for a cluster-scoped `paramKind`",
    );
  }
  const bucket = bucketOf(info);
  let found: KubeObject[];
  if (ref.name) {
    if (ref.selector)
      throw new ConfigurationError("paramRef.name and paramRef.selector are mutually exclusive");
    const o = store.get(bucket, ns, ref.name);
    found = o ? [o] : [];
  } else if (ref.selector) {
    const selector = labelSelectorAsSelector(ref.selector);
    found = store
      .list(bucket, ns)
      .filter((o) => selector.matches((o.metadata?.labels ?? {}) as Record<string, string>));
  } else {
    throw new ConfigurationError("one of name or selector must be provided");
  }
  if (found.length === 0 && ref.parameterNotFoundAction === "Deny")
    throw new ConfigurationError(
      "no params found for policy binding with `Deny` parameterNotFoundAction",
    );
  return found.map((o) => ({ ...deepClone(o), apiVersion: kind.apiVersion, kind: kind.kind }));
}
