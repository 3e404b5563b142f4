/**
 * The structured-merge-diff schema that server-side apply and managedFields walk for a resource
 * version: the serving minor's catalog definition for a built-in, the CRD's structural schema for a custom
 * resource with `metadata` read as ObjectMeta (kube's CRD OpenAPI refers to ObjectMeta there),
 * and the conversion to another served version for kinds served in several (HPA v1 and v2,
 * multi-version CRDs).
 */
import { ssa } from "@opgen/apimachinery/merge";
import {
  groupVersion,
  isObject,
  type KubeObject,
  type ResourceInfo,
  type ResourceVersionInfo,
} from "../api/types.js";

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const cache = new WeakMap<ResourceVersionInfo, ssa.Atom>();

export function atomFor(info: ResourceInfo, version: ResourceVersionInfo): ssa.Atom {
  let atom = cache.get(version);
  if (!atom) {
    atom = build(info, version);
    cache.set(version, atom);
  }
  return atom;
}

function build(info: ResourceInfo, version: ResourceVersionInfo): ssa.Atom {
  const catalog = info.kube.catalog;
  let root: ssa.Atom | undefined;
  if (info.custom) root = version.schema ? ssa.crdAtom(version.schema) : undefined;
  else {
    const name = catalog.definitionName({
      group: info.group,
      version: version.name,
      kind: info.kind,
    });
    root = name ? ssa.definitionAtom(catalog, name) : undefined;
  }
  return ssa.withField(root ?? ssa.deduced, "metadata", ssa.definitionAtom(catalog, OBJECT_META));
}

/**
 * The fields a write through `subresource` resets (kube's `GetResetFields`, the Updater's
 * IgnoreFilter): the strategy's own, else `status` outside the status subresource of a kind that
 * has one and `spec` through it (what the CR strategies and most built-ins' say).
 */
export function resetFieldsFor(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  subresource: string | undefined,
): ssa.FieldSet | undefined {
  const own = info.strategy.resetFields?.(subresource);
  const paths =
    own ?? (!version.status ? [] : subresource === "status" ? [["spec"]] : [["status"]]);
  if (paths.length === 0) return undefined;
  return ssa.FieldSet.of(...paths.map((p) => p.map((name) => ssa.fieldPathElement(name))));
}

const zeros = new WeakMap<ResourceVersionInfo, KubeObject | null>();

/** The object a create is compared against: a built-in's Go zero value, or none (a CR's `{}`). */
export function zeroFor(info: ResourceInfo, version: ResourceVersionInfo): KubeObject | undefined {
  let z = zeros.get(version);
  if (z === undefined) {
    const catalog = info.kube.catalog;
    const name = info.custom
      ? undefined
      : catalog.definitionName({ group: info.group, version: version.name, kind: info.kind });
    const zero = name ? ssa.definitionZero(catalog, name) : undefined;
    z = zero
      ? { ...zero, apiVersion: groupVersion(info.group, version.name), kind: info.kind }
      : null;
    zeros.set(version, z);
  }
  return z ?? undefined;
}

/**
 * An object as the field manager sees it: in the request's version. kube converts the live and
 * the new object to the request's version before structured-merge-diff compares them; envtest
 * decodes a built-in served in several versions to its storage version (as kube's internal
 * one), so an HPA written through autoscaling/v1 is converted back here.
 */
export function inVersion<T>(info: ResourceInfo, version: ResourceVersionInfo, o: T): T {
  if (!info.convert || !isObject(o)) return o;
  const apiVersion = groupVersion(info.group, version.name);
  return (o.apiVersion === apiVersion ? o : info.convert(o as KubeObject, version.name)) as T;
}

/**
 * The Updater's converter (kube's versionConverter): a manager recorded in another version
 * compares the objects converted to that version, with that version's schema. A built-in
 * converts as its conversion functions do; a custom resource as the CRD's `None` strategy does
 * (only apiVersion changes). A version the kind does not have is SMD's missing version: the
 * manager is dropped.
 */
export function converterFor(info: ResourceInfo): ssa.Converter | undefined {
  if (info.versions.length < 2) return undefined;
  return (tv, apiVersion) => {
    const version = info.versions.find((v) => groupVersion(info.group, v.name) === apiVersion);
    if (!version) return undefined;
    let value = tv.value;
    if (isObject(value) && value.apiVersion !== apiVersion) {
      value = info.convert
        ? info.convert(value as KubeObject, version.name)
        : { ...value, apiVersion };
    }
    return { value, atom: atomFor(info, version) };
  };
}
