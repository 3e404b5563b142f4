/**
 * Webhook paths for a kind: @opgen/apimachinery/names' one rule (controller-runtime's
 * generateMutatePath/generateValidatePath, the paths `opgen create webhook` writes into the
 * `@webhook` markers and `opgen manifests` checks), applied to the runtime's `Kind`.
 */
import { defaultWebhookPath, webhookPathProblem } from "@opgen/apimachinery/names";
import type { Kind } from "../api/kind.js";

type KindName = Pick<Kind, "group" | "version" | "kind">;

export function defaultingPath(k: KindName): string {
  return defaultWebhookPath("mutate", k.group, k.version, k.kind);
}

export function validatingPath(k: KindName): string {
  return defaultWebhookPath("validate", k.group, k.version, k.kind);
}

/** Throws one line when `path` is not a path both controller-runtime and the API server accept. */
export function checkWebhookPath(path: string): void {
  const problem = webhookPathProblem(path);
  if (problem) {
    throw new Error(
      `invalid webhook path "${path}": ${problem} (the API server refuses other service paths)`,
    );
  }
}
