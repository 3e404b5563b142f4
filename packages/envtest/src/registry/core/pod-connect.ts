/**
 * The pod "connect" subresources as kube-apiserver 1.32's pod registry serves them up to the point
 * where it would reach the kubelet: `pods/log` (GET), and `pods/exec`, `pods/attach`,
 * `pods/portforward` (GET for WebSocket, POST for SPDY upgrades). Options are decoded and
 * validated, the pod and container resolved, and the node's kubelet located as kube does
 * (`LogLocation`, `streamLocation`, `PortForwardLocation`, the kubelet ConnectionInfoGetter), with
 * kube's answers: 204 for the log of a pod no scheduler has placed, 400 "does not have a host
 * assigned" for a stream to one, 404 for a missing pod or node, 500 for a node without a usable
 * address. envtest runs no kubelet: where kube would dial one, the answer is the 500 kube gives
 * when that dial fails, naming envtest as the reason, and always before any upgrade.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { Registry } from "../../api/registry.js";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { ObjectRest } from "../../rest/objects.js";
import type { RequestScope } from "../../rest/scope.js";
import {
  decodeLogOptions,
  decodePorts,
  decodeStreamOptions,
  type LogOptions,
  validateLogOptions,
} from "./pod-connect-options.js";

export interface ConnectDeps {
  registry: Registry;
  rest: ObjectRest;
}

export async function servePodConnect(
  deps: ConnectDeps,
  scope: RequestScope,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const name = scope.name ?? "";
  const sub = scope.subresource!;
  if (sub === "log") {
    // LogREST: options are decoded and validated before the pod is read.
    const opts = decodeLogOptions(scope.query);
    validateLogOptions(name, opts);
    const pod = await getObject(deps, scope, "pods", name);
    const container = validateContainer(pod, opts.container);
    const nodeName = nodeNameOf(pod);
    if (!nodeName) {
      // An empty location: the streamer has nothing to send (StreamObject's 204).
      res.writeHead(204);
      res.end();
      return;
    }
    const kubelet = await kubeletOf(deps, scope, nodeName);
    const url = `https://${kubelet}/containerLogs/${pod.metadata?.namespace}/${name}/${container}${logQuery(opts)}`;
    // LocationStreamer's GET to the kubelet fails; kube answers its url.Error as a 500.
    throw new ApiError(500, undefined, `Get "${url}": envtest runs no kubelet to answer it`);
  }
  // The connect handler refuses dryRun before decoding the options.
  if (scope.query.getAll("dryRun").length > 0) throw errors.badRequest("dryRun is not supported");
  let container: string | undefined;
  if (sub === "portforward") decodePorts(scope.query);
  else container = decodeStreamOptions(scope.query, sub === "exec").container;
  const pod = await getObject(deps, scope, "pods", name);
  if (container !== undefined) validateContainer(pod, container);
  const nodeName = nodeNameOf(pod);
  if (!nodeName) throw errors.badRequest(`pod ${name} does not have a host assigned`);
  const kubelet = await kubeletOf(deps, scope, nodeName);
  // The upgrade-aware proxy handler: a plain request is refused before anything is dialed.
  if (!isUpgradeRequest(req)) throw errors.badRequest("Upgrade request required");
  throw new ApiError(
    500,
    undefined,
    `error dialing backend: envtest runs no kubelet to dial at ${kubelet}`,
  );
}

/** httpstream.IsUpgradeRequest: a Connection header naming "upgrade". */
function isUpgradeRequest(req: IncomingMessage): boolean {
  const connection = req.headers.connection;
  const values = Array.isArray(connection) ? connection : connection ? [connection] : [];
  return values.some((v) => v.toLowerCase().includes("upgrade"));
}

async function getObject(
  deps: ConnectDeps,
  scope: RequestScope,
  resource: "pods" | "nodes",
  name: string,
): Promise<KubeObject> {
  const found = deps.registry.lookup("", "v1", resource)!;
  return deps.rest.getAsync({
    info: found.info,
    version: found.version,
    ...(resource === "pods" && scope.namespace !== undefined ? { namespace: scope.namespace } : {}),
    name,
    // The registry reads with empty GetOptions: the request's own query is not a read's.
    query: new URLSearchParams(),
    user: scope.user,
    manager: scope.manager,
    warnings: scope.warnings,
  });
}

function nodeNameOf(pod: KubeObject): string {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return typeof spec.nodeName === "string" ? spec.nodeName : "";
}

function names(list: unknown): string[] {
  return (Array.isArray(list) ? list : [])
    .map((c) => (isObject(c) && typeof c.name === "string" ? c.name : ""))
    .filter((n) => n !== "");
}

/**
 * validateContainer: no name picks the only container; several need a name, and the message
 * lists every container (init, regular, ephemeral, as VisitContainers walks them) in Go's `%s`
 * slice form.
 */
function validateContainer(pod: KubeObject, container: string): string {
  const spec = (isObject(pod.spec) ? pod.spec : {}) as JsonObject;
  const podName = pod.metadata?.name ?? "";
  const containers = names(spec.containers);
  const all = [...names(spec.initContainers), ...containers, ...names(spec.ephemeralContainers)];
  if (container === "") {
    if (containers.length === 1) return containers[0]!;
    if (containers.length === 0)
      throw errors.badRequest(`a container name must be specified for pod ${podName}`);
    throw errors.badRequest(
      `a container name must be specified for pod ${podName}, choose one of: [${all.join(" ")}]`,
    );
  }
  if (!all.includes(container))
    throw errors.badRequest(`container ${container} is not valid for pod ${podName}`);
  return container;
}

// kube-apiserver's default --kubelet-preferred-address-types.
const PREFERRED = ["Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"];

/**
 * The kubelet's host:port as NodeConnectionInfoGetter finds it: the node must exist (404), have
 * an address of a preferred type (else the plain error kube answers as a 500), and the port is
 * the one the kubelet reported, 10250 otherwise.
 */
export async function kubeletOf(deps: ConnectDeps, scope: RequestScope, nodeName: string) {
  const node = await getObject(deps, scope, "nodes", nodeName);
  const status = (isObject(node.status) ? node.status : {}) as JsonObject;
  const addresses = (Array.isArray(status.addresses) ? status.addresses : []).filter(isObject);
  let host: string | undefined;
  for (const type of PREFERRED) {
    host = addresses.find((a) => a.type === type && typeof a.address === "string")?.address as
      | string
      | undefined;
    // Kubelets before 1.5 reported their hostname only as a label.
    if (!host && type === "Hostname") host = node.metadata?.labels?.["kubernetes.io/hostname"];
    if (host) break;
  }
  if (!host) {
    const known = addresses.map((a) => `{${String(a.type ?? "")} ${String(a.address ?? "")}}`);
    throw new ApiError(
      500,
      undefined,
      `no preferred addresses found; known addresses: [${known.join(" ")}]`,
    );
  }
  const endpoints = isObject(status.daemonEndpoints) ? status.daemonEndpoints : {};
  const kubeletEndpoint = isObject(endpoints.kubeletEndpoint) ? endpoints.kubeletEndpoint : {};
  const port = Number(kubeletEndpoint.Port ?? 0) > 0 ? Number(kubeletEndpoint.Port) : 10250;
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** The kubelet query LogLocation builds (url.Values.Encode: keys sorted). */
function logQuery(o: LogOptions): string {
  const p: [string, string][] = [];
  if (o.follow) p.push(["follow", "true"]);
  if (o.previous) p.push(["previous", "true"]);
  if (o.timestamps) p.push(["timestamps", "true"]);
  if (o.sinceSeconds !== undefined) p.push(["sinceSeconds", String(o.sinceSeconds)]);
  if (o.sinceTime !== undefined) p.push(["sinceTime", o.sinceTime]);
  if (o.tailLines !== undefined) p.push(["tailLines", String(o.tailLines)]);
  if (o.limitBytes !== undefined) p.push(["limitBytes", String(o.limitBytes)]);
  if (p.length === 0) return "";
  p.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `?${new URLSearchParams(p).toString()}`;
}
