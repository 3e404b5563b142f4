/** Endpoints (`pkg/registry/core/endpoint`): the columns kubectl prints (`10.0.0.1:80,...`). */
import type { JsonObject } from "../../api/types.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import type { ResourceStrategy } from "../strategy.js";

/** `net.JoinHostPort`: IPv6 addresses in brackets. */
function hostPort(ip: unknown, port: unknown): string {
  const host = String(ip ?? "");
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * kube's formatEndpoints: per subset, every port's addresses (`ip:port`, or the bare IPs of a
 * subset without ports), the first three shown and `+ N more...` for the rest.
 */
function formatEndpoints(subsets: unknown): string {
  const list = (Array.isArray(subsets) ? subsets : []) as JsonObject[];
  if (list.length === 0) return "<none>";
  const pairs: string[] = [];
  for (const ss of list) {
    const addresses = (ss.addresses ?? []) as JsonObject[];
    const ports = (ss.ports ?? []) as JsonObject[];
    if (ports.length === 0) for (const a of addresses) pairs.push(String(a.ip ?? ""));
    for (const p of ports) for (const a of addresses) pairs.push(hostPort(a.ip, p.port));
  }
  return pairs.length > 3
    ? `${pairs.slice(0, 3).join(",")} + ${pairs.length - 3} more...`
    : pairs.join(",");
}

export const endpoints: ResourceStrategy = {
  nameRule: "subdomain",
  printer: () =>
    namedPrinter(
      [{ name: "Endpoints", type: "string", description: doc("api.core.v1.Endpoints", "subsets") }],
      (o) => [formatEndpoints(o.subsets)],
    ),
};
