/** ServiceAccounts: the `token` subresource (TokenRequest), answered by rest/token-request.ts. */
import type { ResourceStrategy } from "../strategy.js";

export const serviceAccounts: ResourceStrategy = {
  nameRule: "subdomain",
  extraSubresources: ["token"],
};
