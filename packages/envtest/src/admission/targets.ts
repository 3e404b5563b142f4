/**
 * Where a webhook's `clientConfig` points: a `url` as given, or a Service reference as
 * `https://<name>.<namespace>.svc:<port><path>` (port 443 by default) dialled at one of the
 * Service's endpoints with that DNS name as TLS server name (`apiserver: pkg/util/webhook/
 * client.go`). envtest runs no pods, so a Service only answers if a test gave it endpoints;
 * `startTestEnv({ webhooks })` rewrites Service references to the local URL instead.
 */
import { bucketKey } from "../api/registry.js";
import type { JsonObject, WebhookClientConfig } from "../api/types.js";
import type { Store } from "../store/store.js";
import { CallError, type CallTarget } from "./client.js";

/** The target of one call; throws CallError when a Service reference cannot be resolved. */
export function callTarget(
  store: Store,
  cc: WebhookClientConfig,
  timeoutSeconds: number,
): CallTarget {
  const timeout = `?timeout=${timeoutSeconds}s`;
  const base = {
    timeoutMs: timeoutSeconds * 1000,
    ...(cc.caBundle ? { caBundle: cc.caBundle } : {}),
  };
  if (cc.url) return { ...base, url: `${cc.url}${timeout}` };
  const svc = cc.service ?? { namespace: "", name: "" };
  const port = svc.port ?? 443;
  const host = `${svc.name}.${svc.namespace}.svc`;
  const url = `https://${host}:${port}${svc.path ?? ""}${timeout}`;
  const fail = (cause: string) => new CallError(`Post "${url}": ${cause}`);
  const service = store.get(bucketKey("", "services"), svc.namespace, svc.name);
  if (!service) throw fail(`service "${svc.name}" not found`);
  const ports = ((service.spec as JsonObject | undefined)?.ports ?? []) as JsonObject[];
  const sp = ports.find((p) => p.port === port);
  if (!sp) throw fail(`no service port ${port} found for service "${svc.name}"`);
  const endpoints = store.get(bucketKey("", "endpoints"), svc.namespace, svc.name);
  for (const subset of ((endpoints?.subsets ?? []) as JsonObject[]) ?? []) {
    const address = ((subset.addresses ?? []) as JsonObject[])[0];
    const epPort = ((subset.ports ?? []) as JsonObject[]).find(
      (p) => p.name === sp.name || ports.length === 1,
    );
    if (address && typeof address.ip === "string" && epPort && typeof epPort.port === "number") {
      return {
        ...base,
        url,
        connectHost: address.ip,
        connectPort: epPort.port,
        serverName: host,
      };
    }
  }
  throw fail(`no endpoints available for service "${svc.name}"`);
}
