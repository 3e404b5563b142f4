/**
 * LimitRanges (`pkg/apis/core/v1/defaults.go` SetDefaults_LimitRangeItem): for Container items,
 * the default limit falls back to `max`, the default request to the default limit, then `min`.
 */
import { isObject, type JsonObject } from "../../api/types.js";
import type { ResourceStrategy } from "../strategy.js";

export const limitRanges: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const items = (isObject(o.spec) ? o.spec.limits : undefined) as JsonObject[] | undefined;
    for (const item of items ?? []) {
      if (!isObject(item) || item.type !== "Container") continue;
      const def = { ...((item.default as JsonObject | undefined) ?? {}) };
      const req = { ...((item.defaultRequest as JsonObject | undefined) ?? {}) };
      for (const [k, v] of Object.entries((item.max as JsonObject | undefined) ?? {}))
        if (!(k in def)) def[k] = v;
      for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
      for (const [k, v] of Object.entries((item.min as JsonObject | undefined) ?? {}))
        if (!(k in req)) req[k] = v;
      if (Object.keys(def).length) item.default = def;
      if (Object.keys(req).length) item.defaultRequest = req;
    }
  },
};
