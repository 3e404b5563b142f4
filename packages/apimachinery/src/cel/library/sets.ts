/** cel-go's sets extension (`sets.contains`, `sets.equivalent`, `sets.intersects`). */
import type { Environment } from "@marcbachmann/cel-js";
import { namespace } from "./namespace.js";
import { celEqual } from "./values.js";

const has = (list: unknown[], v: unknown) => list.some((x) => celEqual(x, v));

export function registerSets(env: Environment): void {
  const ns = namespace(env, "sets");
  env.registerFunction(
    `${ns}.contains(list, list): bool`,
    (_: unknown, a: unknown[], b: unknown[]) => b.every((v) => has(a, v)),
  );
  env.registerFunction(
    `${ns}.equivalent(list, list): bool`,
    (_: unknown, a: unknown[], b: unknown[]) =>
      b.every((v) => has(a, v)) && a.every((v) => has(b, v)),
  );
  env.registerFunction(
    `${ns}.intersects(list, list): bool`,
    (_: unknown, a: unknown[], b: unknown[]) => b.some((v) => has(a, v)),
  );
}
