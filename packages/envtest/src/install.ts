/**
 * Installing manifests through the API, as a client does (server-side apply, so manifests that
 * changed are re-installed in envtest or an existing cluster), and whether CRDs are Established.
 */
import type { KubeConfig, KubernetesObject } from "@kubernetes/client-node";
import { KubernetesObjectApi, PatchStrategy } from "@kubernetes/client-node";
import type { KubeObject } from "./api/types.js";

function header(o: KubernetesObject) {
  return {
    apiVersion: o.apiVersion ?? "",
    kind: o.kind ?? "",
    metadata: { name: o.metadata?.name ?? "", namespace: o.metadata?.namespace },
  };
}

/** The field manager manifests are applied with (kubectl's `--field-manager` for apply). */
export const INSTALL_FIELD_MANAGER = "opgen";

/**
 * Applies each object with server-side apply (forced, one field manager), as
 * `kubectl apply --server-side --force-conflicts` does: created when absent, otherwise only the
 * fields the manifests set are changed (a CRD's finalizers and status stay), and an unchanged
 * manifest changes nothing.
 */
export async function applyObjects(kc: KubeConfig, objects: readonly KubeObject[]): Promise<void> {
  const client = KubernetesObjectApi.makeApiClient(kc);
  for (const o of objects as unknown as KubernetesObject[]) {
    try {
      await client.patch(
        o,
        undefined,
        undefined,
        INSTALL_FIELD_MANAGER,
        true,
        PatchStrategy.ServerSideApply,
      );
    } catch (e) {
      throw new Error(`cannot apply ${o.kind} ${o.metadata?.name}: ${statusMessage(e)}`);
    }
  }
}

/** The API server's Status message of a failed call (client-node puts the body in `body`). */
function statusMessage(e: unknown): string {
  const body = (e as { body?: unknown }).body;
  try {
    const status = (typeof body === "string" ? JSON.parse(body) : body) as { message?: string };
    if (status?.message) return status.message;
  } catch {
    // not a Status body
  }
  return (e as Error).message?.split("\n")[0] ?? String(e);
}

/** Whether a CRD's Established condition is True. */
export function isEstablished(crd: KubeObject | undefined): boolean {
  const conditions = (crd?.status as { conditions?: { type?: string; status?: string }[] })
    ?.conditions;
  return !!conditions?.some((c) => c.type === "Established" && c.status === "True");
}

/** Whether every CRD in `crds` is Established now (read through the API). */
export async function crdsEstablished(
  kc: KubeConfig,
  crds: readonly KubeObject[],
): Promise<boolean> {
  const client = KubernetesObjectApi.makeApiClient(kc);
  for (const crd of crds as unknown as KubernetesObject[]) {
    const live = (await client.read(header(crd))) as unknown as KubeObject;
    if (!isEstablished(live)) return false;
  }
  return true;
}
