import { describe, expect, it } from "vitest";
import { catalogFor, catalogMinors } from "../src/catalog/index.js";
import { featureGates } from "../src/version/feature-gates.js";
import { defaultKubernetesMinor, kubernetesMinors, kubeVersion } from "../src/version/index.js";

describe("the Kubernetes version profile", () => {
  it("is derived from the minor's catalog data, the default minor when none is named", () => {
    expect(kubernetesMinors()).toEqual(catalogMinors());
    expect(kubernetesMinors()).toContain(defaultKubernetesMinor());
    const v = kubeVersion();
    expect(v.minor).toBe(defaultKubernetesMinor());
    expect(v.catalog).toBe(catalogFor(v.minor));
    const release = v.catalog.release();
    expect(v.info).toEqual({
      major: release.major,
      minor: release.minor,
      gitVersion: release.gitVersion,
    });
    expect(`${v.info.major}.${v.info.minor}`).toBe(v.minor);
    expect(v.info.gitVersion.startsWith(`v${v.minor}.`)).toBe(true);
  });

  it("has 1.32 with its release facts and gate defaults", () => {
    const v = kubeVersion("1.32");
    expect(v.info).toEqual({ major: "1", minor: "32", gitVersion: "v1.32.0" });
    // CRDValidationRatcheting went beta, on by default, in 1.30 (GA and locked in 1.33).
    expect(v.featureGates.enabled("CRDValidationRatcheting")).toBe(true);
    expect([...v.featureGates.all]).toEqual([["CRDValidationRatcheting", true]]);
  });

  it("refuses an unknown minor naming the known ones", () => {
    expect(() => kubeVersion("1.99")).toThrow(
      `Kubernetes 1.99 is not a version opgen knows; use one of ${kubernetesMinors().join(", ")}`,
    );
  });

  it("overrides gate defaults per profile, leaving other profiles alone", () => {
    const off = kubeVersion("1.32", { featureGates: { CRDValidationRatcheting: false } });
    const on = kubeVersion("1.32");
    expect(off.featureGates.enabled("CRDValidationRatcheting")).toBe(false);
    expect(on.featureGates.enabled("CRDValidationRatcheting")).toBe(true);
    expect(off.catalog).toBe(on.catalog);
  });

  it("refuses a gate the minor lacks, and asking for one", () => {
    expect(() => kubeVersion("1.32", { featureGates: { CRDValidationRatchetting: true } })).toThrow(
      "unrecognized feature gate: CRDValidationRatchetting (Kubernetes 1.32 has CRDValidationRatcheting)",
    );
    expect(() => kubeVersion("1.32").featureGates.enabled("Nope")).toThrow(
      "Kubernetes 1.32 has no feature gate Nope",
    );
  });

  it("refuses setting a locked gate against its default, as kube does", () => {
    const specs = { G: { default: true, preRelease: "GA", lockToDefault: true } } as const;
    expect(() => featureGates("1.33", specs, { G: false })).toThrow(
      "cannot set feature gate G to false, feature is locked to true",
    );
    expect(featureGates("1.33", specs, { G: true }).enabled("G")).toBe(true);
  });
});
