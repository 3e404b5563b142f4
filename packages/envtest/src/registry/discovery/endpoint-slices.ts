/** EndpointSlices (`pkg/registry/discovery/endpointslice`): the columns kubectl prints. */
import type { JsonObject } from "../../api/types.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import type { ResourceStrategy } from "../strategy.js";

function firstThree(items: string[], empty: string): string {
  if (items.length === 0) return empty;
  return items.length > 3
    ? `${items.slice(0, 3).join(",")} + ${items.length - 3} more...`
    : items.join(",");
}

export const endpointSlices: ResourceStrategy = {
  nameRule: "subdomain",
  printer: () =>
    namedPrinter(
      [
        {
          name: "AddressType",
          type: "string",
          description: doc("api.discovery.v1.EndpointSlice", "addressType"),
        },
        {
          name: "Ports",
          type: "string",
          description: doc("api.discovery.v1.EndpointSlice", "ports"),
        },
        {
          name: "Endpoints",
          type: "string",
          description: doc("api.discovery.v1.EndpointSlice", "endpoints"),
        },
      ],
      (o) => {
        const ports = ((o.ports ?? []) as JsonObject[]).map((p) =>
          typeof p.port === "number" ? String(p.port) : "<unset>",
        );
        const addresses = ((o.endpoints ?? []) as JsonObject[]).flatMap(
          (e) => (e.addresses ?? []) as string[],
        );
        return [
          o.addressType ?? "",
          firstThree(ports, "<unset>"),
          firstThree(addresses, "<unset>"),
        ];
      },
    ),
};
