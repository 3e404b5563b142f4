/** EndpointSlices (`pkg/registry/discovery/endpointslice`): the columns kubectl prints. */
import { doc } from "../printing/describe.js";
import { firstWithMore, listAt, str } from "../printing/format.js";
import { namedPrinter } from "../printing.js";
import type { ResourceStrategy } from "../strategy.js";

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
        // A port without a number shows its name, or `*` (every port).
        const ports = listAt(o.ports).map((p) =>
          typeof p.port === "number" ? String(p.port) : typeof p.name === "string" ? p.name : "*",
        );
        const addresses = listAt(o.endpoints).flatMap((e) =>
          Array.isArray(e.addresses) ? (e.addresses as string[]) : [],
        );
        return [str(o.addressType), firstWithMore(ports), firstWithMore(addresses)];
      },
    ),
};
