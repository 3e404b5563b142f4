/**
 * ServiceAccounts: the `token` subresource (TokenRequest, answered by token-request.ts) and
 * the columns kubectl prints.
 */

import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import type { ResourceStrategy } from "../strategy.js";

export const serviceAccounts: ResourceStrategy = {
  nameRule: "subdomain",
  printer: () =>
    namedPrinter(
      [
        {
          name: "Secrets",
          type: "string",
          description: doc("api.core.v1.ServiceAccount", "secrets"),
        },
      ],
      (o) => [Array.isArray(o.secrets) ? o.secrets.length : 0],
    ),
};
