/**
 * A minor's feature gates as kube's featuregate package sets them: each gate's default at the
 * minor (from the catalog's release facts), overridden by `--feature-gates`-style settings, which
 * may name only gates the minor has and may not move a locked gate off its default.
 */
import type { FeatureGateSpec } from "../catalog/index.js";

/** A minor's feature gates: each gate's default at that minor, with the overrides applied. */
export interface FeatureGates {
  /** Whether a gate is on; throws for a gate the minor does not have (a typo, or a newer gate). */
  enabled(name: string): boolean;
  /** Every gate of the minor and whether it is on, sorted by name. */
  readonly all: ReadonlyMap<string, boolean>;
}

/** The gates of `minor` from their specs and the overrides; throws on an unknown or locked gate. */
export function featureGates(
  minor: string,
  specs: Readonly<Record<string, FeatureGateSpec>>,
  overrides: Readonly<Record<string, boolean>>,
): FeatureGates {
  const known = Object.keys(specs).sort();
  for (const [name, value] of Object.entries(overrides)) {
    const spec = specs[name];
    if (!spec)
      throw new Error(
        `unrecognized feature gate: ${name} (Kubernetes ${minor} has ${known.join(", ") || "none"})`,
      );
    // kube's featuregate.Set refuses the same way.
    if (spec.lockToDefault && value !== spec.default)
      throw new Error(
        `cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`,
      );
  }
  const all = new Map(known.map((name) => [name, overrides[name] ?? specs[name]!.default]));
  return {
    all,
    enabled(name: string): boolean {
      const on = all.get(name);
      if (on === undefined) throw new Error(`Kubernetes ${minor} has no feature gate ${name}`);
      return on;
    },
  };
}
