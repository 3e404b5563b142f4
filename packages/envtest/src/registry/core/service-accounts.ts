/**
 * ServiceAccounts: the `token` subresource (TokenRequest, answered by rest/token-request.ts) and
 * the columns kubectl prints.
 */
import { namedPrinter } from "../printing.js";
import type { ResourceStrategy } from "../strategy.js";

export const serviceAccounts: ResourceStrategy = {
  nameRule: "subdomain",
  extraSubresources: ["token"],
  printer: () =>
    namedPrinter(
      [
        {
          name: "Secrets",
          type: "string",
          description:
            "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.",
        },
      ],
      (o) => [Array.isArray(o.secrets) ? o.secrets.length : 0],
    ),
};
