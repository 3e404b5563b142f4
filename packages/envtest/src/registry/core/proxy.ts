/**
 * `pods/<name>/proxy`, `services/<name>/proxy` and `nodes/<name>/proxy` (with any trailing
 * `/<path>`) as kube-apiserver 1.32's proxy REST handlers answer them up to the backend: the
 * `[scheme:]name[:port]` id split as SplitSchemeNamePort does, the pod's IP (400 "address not
 * allowed" without a usable one), the service's port and endpoints (503 "no endpoints available"),
 * the node's kubelet (its hostname resolved and refused when it is no proxyable address). envtest
 * runs no pod network and no kubelet: where kube would dial the backend, the answer is the 503 its
 * proxy transport gives when that dial fails, naming envtest as the reason.
 */
import { lookup } from "node:dns/promises";
import { isIPv4, isIPv6 } from "node:net";
import { errors } from "@opgen/apimachinery/status";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { RequestScope } from "../../rest/scope.js";
import { type ConnectDeps, kubeletOf } from "./pod-connect.js";

/** Where kube's proxy would send the request, and what would have to answer there. */
interface Backend {
  scheme: string;
  host: string;
  port: string;
  missing: string;
}

export async function serveProxy(deps: ConnectDeps, scope: RequestScope): Promise<never> {
  // The connect handler refuses dryRun before anything else.
  if (scope.query.getAll("dryRun").length > 0) throw errors.badRequest("dryRun is not supported");
  const id = scope.name ?? "";
  const resource = scope.info.resource;
  const [scheme, name, port] = splitSchemeNamePort(id, resource.slice(0, -1));
  const backend =
    resource === "pods"
      ? await podBackend(deps, scope, name, port)
      : resource === "services"
        ? await serviceBackend(deps, scope, id, name, port)
        : await nodeBackend(deps, scope, name, port);
  const s = backend.scheme || scheme || "http";
  // The dialed address: a missing port is the scheme's.
  const dialed = joinHostPort(backend.host, backend.port || (s === "https" ? "443" : "80"));
  // The proxy transport's RoundTrip error, as kube wraps it.
  throw errors.serviceUnavailable(
    `error trying to reach service: dial tcp ${dialed}: envtest runs no ${backend.missing} to answer it`,
  );
}

/** utilnet.SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port` (http, https or none). */
function splitSchemeNamePort(
  id: string,
  kind: string,
): [scheme: string, name: string, port: string] {
  const parts = id.split(":");
  let scheme = "";
  let name = "";
  let port = "";
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  if (name === "" || parts.length > 3 || !["", "http", "https"].includes(scheme))
    throw errors.badRequest(`invalid ${kind} request ${JSON.stringify(id)}`);
  return [scheme, name, port];
}

function read(
  deps: ConnectDeps,
  scope: RequestScope,
  resource: "pods" | "services" | "endpoints" | "nodes",
  name: string,
): Promise<KubeObject> {
  const found = deps.registry.lookup("", "v1", resource)!;
  return deps.rest.getAsync({
    info: found.info,
    version: found.version,
    ...(resource !== "nodes" && scope.namespace !== undefined
      ? { namespace: scope.namespace }
      : {}),
    name,
    // The registry reads with empty GetOptions: the request's query is the backend's.
    query: new URLSearchParams(),
    user: scope.user,
    manager: scope.manager,
    warnings: scope.warnings,
  });
}

function list(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** pod.ResourceLocation: the first pod IP, and the first declared container port by default. */
async function podBackend(deps: ConnectDeps, scope: RequestScope, name: string, port: string) {
  const pod = await read(deps, scope, "pods", name);
  if (port === "") {
    const withPorts = list(objectOf(pod.spec).containers).find((c) => list(c.ports).length > 0);
    if (withPorts) port = String(list(withPorts.ports)[0]!.containerPort ?? 0);
  }
  const ip = String(list(objectOf(pod.status).podIPs)[0]?.ip ?? "");
  if (!isGlobalUnicast(ip)) throw errors.badRequest("address not allowed");
  return { scheme: "", host: ip, port, missing: "pod network" } satisfies Backend;
}

/**
 * The service REST's ResourceLocation: a port number names the service port it matches; an
 * endpoint address counts only when it is the IP of the pod it targets in this namespace.
 */
async function serviceBackend(
  deps: ConnectDeps,
  scope: RequestScope,
  id: string,
  name: string,
  port: string,
) {
  if (/^[+-]?\d+$/.test(port)) {
    const service = await read(deps, scope, "services", name);
    const number = Number(port);
    const match = list(objectOf(service.spec).ports).find((p) => p.port === number);
    if (!match)
      throw errors.serviceUnavailable(
        `no service port ${number} found for service ${JSON.stringify(name)}`,
      );
    port = String(match.name ?? "");
  }
  const endpoints = await read(deps, scope, "endpoints", name);
  const subsets = list(endpoints.subsets);
  if (subsets.length === 0)
    throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  // kube starts at a random subset and address; any valid one is an answer it can give.
  for (const subset of subsets) {
    const addresses = list(subset.addresses);
    if (addresses.length === 0) continue;
    for (const p of list(subset.ports)) {
      if (String(p.name ?? "") !== port) continue;
      for (const address of addresses) {
        if (!(await isValidAddress(deps, scope, address))) continue;
        const host = String(address.ip ?? "");
        return { scheme: "", host, port: String(p.port ?? 0), missing: "pod network" };
      }
    }
  }
  throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
}

async function isValidAddress(
  deps: ConnectDeps,
  scope: RequestScope,
  address: JsonObject,
): Promise<boolean> {
  const ref = objectOf(address.targetRef);
  if (!address.targetRef || ref.namespace !== scope.namespace) return false;
  // A pod that cannot be read skips the address, as any mismatch does.
  const pod = await read(deps, scope, "pods", String(ref.name ?? "")).catch(() => undefined);
  return list(objectOf(pod?.status).podIPs).some((p) => p.ip === address.ip);
}

/**
 * node.ResourceLocation: the kubelet's address and port (its https endpoint unless another port
 * is asked for); the hostname must resolve to proxyable addresses only.
 */
async function nodeBackend(deps: ConnectDeps, scope: RequestScope, name: string, port: string) {
  const kubelet = await kubeletOf(deps, scope, name);
  const at = kubelet.lastIndexOf(":");
  const host = kubelet.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  const kubeletPort = kubelet.slice(at + 1);
  await checkProxyableHostname(host);
  if (port === "" || port === kubeletPort)
    return { scheme: "https", host, port: kubeletPort, missing: "kubelet" };
  return { scheme: "", host, port, missing: "node" };
}

/**
 * proxyutil.IsProxyableHostname: every address the name resolves to must be proxyable. Go's
 * resolver error reads `lookup <name>: no such host` (kube's pure-Go resolver also names the DNS
 * server it asked).
 */
async function checkProxyableHostname(host: string): Promise<void> {
  let addresses: string[];
  if (isIPv4(host) || isIPv6(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why =
        code === "ENOTFOUND" || code === "ENODATA" ? "no such host" : "server misbehaving";
      throw errors.badRequest(`lookup ${host}: ${why}`);
    }
  }
  if (addresses.length === 0) throw errors.badRequest("no addresses for hostname");
  if (!addresses.every(isGlobalUnicast)) throw errors.badRequest("address not allowed");
}

function objectOf(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

function joinHostPort(host: string, port: string): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Go's net.IP.IsGlobalUnicast on netutils.ParseIPSloppy's parse (IPv4 may carry leading zeros):
 * not unspecified, loopback, multicast, link-local or the IPv4 broadcast address.
 */
export function isGlobalUnicast(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const b = v4.slice(1).map(Number);
    if (b.some((x) => x > 255)) return false;
    const [a, c] = [b[0]!, b[1]!];
    if (b.every((x) => x === 0) || b.every((x) => x === 255)) return false;
    // Not loopback, multicast (224/4) or link-local; class E counts, as in Go.
    return a !== 127 && !(a >= 224 && a <= 239) && !(a === 169 && c === 254);
  }
  if (!isIPv6(ip)) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return isGlobalUnicast(mapped[1]!);
  const full = expandIPv6(ip);
  if (/^0{32}$/.test(full) || full === `${"0".repeat(31)}1`) return false;
  if (full.startsWith("ff")) return false;
  const first = Number.parseInt(full.slice(0, 4), 16);
  return (first & 0xffc0) !== 0xfe80;
}

/** The 32 hex digits of an IPv6 address (an embedded IPv4 tail included). */
function expandIPv6(ip: string): string {
  let s = ip.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
    s = `${s.slice(0, tail.index)}${hex(a, b)}:${hex(c, d)}`;
  }
  const [head, rest] = s.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const r = rest ? rest.split(":") : [];
  const groups = rest === undefined ? h : [...h, ...Array(8 - h.length - r.length).fill("0"), ...r];
  return groups.map((g) => g.padStart(4, "0")).join("");
}
