/**
 * Admission webhook paths, one rule for the scaffold that writes them into `@webhook` markers and
 * the runtime that serves them (controller-runtime's generateMutatePath/generateValidatePath):
 * `/mutate-<group with . as ->-<version>-<lower-case kind>` and `/validate-...`; the core group ""
 * gives `/mutate--v1-pod`.
 */

export type WebhookPathKind = "mutate" | "validate";

export function defaultWebhookPath(
  type: WebhookPathKind,
  group: string,
  version: string,
  kind: string,
): string {
  return `/${type}-${group.replaceAll(".", "-")}-${version}-${kind.toLowerCase()}`;
}

const SEGMENT = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Why `path` cannot be a webhook's service path, or undefined when it can: the stricter of
 * controller-runtime's `^((/[a-zA-Z0-9-_]+)+|/)$` and the API server's rule (each segment a
 * lower-case DNS-1123 subdomain), so a path the runtime accepts is never one `kubectl apply`
 * of the configuration refuses.
 */
export function webhookPathProblem(path: string): string | undefined {
  if (path === "/") return undefined;
  const parts = path.split("/");
  if (parts[0] !== "" || parts.length < 2) return `must start with "/"`;
  if (parts.slice(1).some((p) => !SEGMENT.test(p) || p.length > 253)) {
    return `segments must be lower-case letters, digits and "-", starting and ending with a letter or digit`;
  }
  return undefined;
}
