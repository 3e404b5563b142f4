/**
 * `@opgen/apimachinery/version`: the Kubernetes version profile, the one home of "which
 * Kubernetes": a minor, the catalog of that minor, what its kube-apiserver reports about itself
 * and its feature gates, on or off. Everything in a profile is read from the minor's catalog data
 * (`data/<minor>/release.json`, generated from kube's versioned feature specs), so serving another
 * minor means adding its data (`scripts/catalog/minors.json`, `npm run catalog`), not code. Code
 * that behaves differently by release asks its profile (`featureGates.enabled(...)`), never a
 * version literal. Profiles are values: two servers in one process may hold different ones.
 */
import { type Catalog, catalogFor, catalogMinors, defaultCatalogMinor } from "../catalog/index.js";
import { type FeatureGates, featureGates } from "./feature-gates.js";

export type { FeatureGates } from "./feature-gates.js";

/** A Kubernetes version profile. */
export interface KubeVersion {
  /** The minor, e.g. "1.36". */
  readonly minor: string;
  /** The minor's built-in API. */
  readonly catalog: Catalog;
  /** What `/version` reports: major "1", minor "36", gitVersion "v1.36.0". */
  readonly info: { readonly major: string; readonly minor: string; readonly gitVersion: string };
  readonly featureGates: FeatureGates;
}

export interface KubeVersionOptions {
  /** Gates set on or off instead of their default, as kube's `--feature-gates`. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
}

/** The minors opgen has a profile for, oldest first. */
export function kubernetesMinors(): readonly string[] {
  return catalogMinors();
}

/** The minor used when none is named. */
export function defaultKubernetesMinor(): string {
  return defaultCatalogMinor();
}

/**
 * The profile of a minor ("1.36"; the default one when undefined). Throws one line naming the
 * known minors for an unknown minor, the minor's gates for an unknown gate, and kube's message
 * for a locked gate set against its default.
 */
export function kubeVersion(minor?: string, opts: KubeVersionOptions = {}): KubeVersion {
  const catalog = catalogFor(minor ?? defaultKubernetesMinor());
  const release = catalog.release();
  return {
    minor: catalog.minor,
    catalog,
    info: { major: release.major, minor: release.minor, gitVersion: release.gitVersion },
    featureGates: featureGates(catalog.minor, release.featureGates, opts.featureGates ?? {}),
  };
}
