/** RBAC objects (`pkg/registry/rbac`): names are path segments (`ValidateRBACName`), so `system:controller:x` is valid. */
import type { ResourceStrategy } from "../strategy.js";

export const rbacObjects: ResourceStrategy = { nameRule: "path" };
