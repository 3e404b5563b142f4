/** Endpoints (`pkg/registry/core/endpoint`): the columns kubectl prints (`10.0.0.1:80,...`). */
import type { JsonObject } from "../../api/types.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import type { ResourceStrategy } from "../strategy.js";

/** kube's formatEndpoints: up to three `ip:port` pairs, then `+ N more...`. */
function formatEndpoints(subsets: unknown): string {
  const pairs: string[] = [];
  for (const ss of (Array.isArray(subsets) ? subsets : []) as JsonObject[]) {
    const addresses = (ss.addresses ?? []) as JsonObject[];
    const ports = (ss.ports ?? []) as JsonObject[];
    for (const a of addresses) {
      if (ports.length === 0) pairs.push(String(a.ip));
      for (const p of ports) pairs.push(`${a.ip}:${p.port}`);
    }
  }
  if (pairs.length === 0) return "<none>";
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
