/**
 * The AppArmor version skew of kube-apiserver 1.32's pod PrepareForCreate
 * (`pkg/registry/core/pod/strategy.go` applyAppArmorVersionSkew): a container without the
 * legacy `container.apparmor.security.beta.kubernetes.io/<name>` annotation gets it from its
 * `appArmorProfile` field (or the pod's), and a container with the annotation but no field gets
 * the field, unless it equals the pod's profile, with kube's deprecation warning. Windows pods are
 * left alone. Pod Security sees the synced pod, so it reports both forms as kube does.
 */
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";

const PREFIX = "container.apparmor.security.beta.kubernetes.io/";

function annotationFor(profile: JsonObject): string {
  if (profile.type === "Unconfined") return "unconfined";
  if (profile.type === "RuntimeDefault") return "runtime/default";
  if (profile.type === "Localhost" && typeof profile.localhostProfile === "string")
    return `localhost/${profile.localhostProfile}`;
  return "";
}

function fieldFor(annotation: string): JsonObject | undefined {
  if (annotation === "unconfined") return { type: "Unconfined" };
  if (annotation === "runtime/default") return { type: "RuntimeDefault" };
  if (annotation.startsWith("localhost/")) {
    const localhostProfile = annotation.slice("localhost/".length);
    // ValidateAppArmorProfileField: a Localhost profile names a non-blank profile.
    if (localhostProfile.trim() !== "" && localhostProfile.length <= 4095)
      return { type: "Localhost", localhostProfile };
  }
  return undefined;
}

const same = (a: JsonObject, b: JsonObject | undefined) =>
  b !== undefined && a.type === b.type && a.localhostProfile === b.localhostProfile;

export function applyAppArmorVersionSkew(pod: KubeObject, warnings: string[]): void {
  const spec = isObject(pod.spec) ? (pod.spec as JsonObject) : undefined;
  if (!spec) return;
  if (isObject(spec.os) && (spec.os as JsonObject).name === "windows") return;
  const podSc = isObject(spec.securityContext) ? (spec.securityContext as JsonObject) : {};
  const podProfile = isObject(podSc.appArmorProfile)
    ? (podSc.appArmorProfile as JsonObject)
    : undefined;
  pod.metadata ??= {};
  const meta = pod.metadata;
  for (const key of ["initContainers", "containers", "ephemeralContainers"]) {
    if (!Array.isArray(spec[key])) continue;
    for (const c of spec[key] as JsonObject[]) {
      if (!isObject(c)) continue;
      const annotationKey = PREFIX + String(c.name ?? "");
      const annotation = meta.annotations?.[annotationKey];
      const sc = isObject(c.securityContext) ? (c.securityContext as JsonObject) : undefined;
      const profile = isObject(sc?.appArmorProfile)
        ? (sc!.appArmorProfile as JsonObject)
        : undefined;
      if (annotation === undefined) {
        const value = profile
          ? annotationFor(profile)
          : podProfile
            ? annotationFor(podProfile)
            : "";
        if (value !== "") meta.annotations = { ...meta.annotations, [annotationKey]: value };
      } else if (!profile) {
        const field = fieldFor(annotation);
        let warn = field === undefined;
        if (field && !same(field, podProfile)) {
          c.securityContext = { ...(sc ?? {}), appArmorProfile: field };
          warn = true;
        }
        if (warn)
          warnings.push(
            `metadata.annotations[${annotationKey}]: deprecated since v1.30; use the "appArmorProfile" field instead`,
          );
      }
    }
  }
}
