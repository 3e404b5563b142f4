/**
 * Webhook paths (controller-runtime's generateMutatePath / generateValidatePath, the same rule
 * Kubebuilder writes into the `@webhook` marker): `/mutate-<group with . as ->-<version>-<kind in
 * lower case>` and `/validate-...`; the core group gives `/mutate--v1-pod`. Custom paths are
 * checked with the stricter of the two rules that apply: controller-runtime's
 * `^((/[a-zA-Z0-9-_]+)+|/)$` and the API server's lower-case DNS-1123 segments for service paths,
 * so a path the runtime accepts is never one `kubectl apply` of the configuration refuses.
 */
import type { Kind } from "../api/kind.js";

type KindName = Pick<Kind, "group" | "version" | "kind">;

function suffix(k: KindName): string {
  return `${k.group.replaceAll(".", "-")}-${k.version}-${k.kind.toLowerCase()}`;
}

export function defaultingPath(k: KindName): string {
  return `/mutate-${suffix(k)}`;
}

export function validatingPath(k: KindName): string {
  return `/validate-${suffix(k)}`;
}

const segment = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Throws one line when `path` is not a path both controller-runtime and the API server accept. */
export function checkWebhookPath(path: string): void {
  if (path === "/") return;
  const parts = path.split("/");
  if (
    parts[0] !== "" ||
    parts.length < 2 ||
    parts.slice(1).some((p) => !segment.test(p) || p.length > 253)
  ) {
    throw new Error(
      `invalid webhook path "${path}": use "/" and segments of lower-case letters, digits and "-" that start and end with a letter or digit (the API server refuses other service paths)`,
    );
  }
}
