/**
 * A runtime cost meter for CEL evaluation, as cel-go's cost tracking bounds it in kube-apiserver
 * (a per-call limit and a per-object budget): each evaluated expression node costs one unit.
 * That is not cel-go's exact cost model (it weighs functions by argument size), but it bounds
 * evaluation the same way, so a rule over a large object fails closed instead of stalling the
 * server. cel-js has no hook for this; every node is evaluated through its Evaluator's `run`,
 * which is wrapped once (the package is pinned to an exact version and tests cover the hook).
 */
import type { Environment } from "@marcbachmann/cel-js";

/** cel-go's error when a call exceeds its limit. */
export const COST_LIMIT_EXCEEDED = "operation cancelled: actual cost limit exceeded";

export class CelCostLimitError extends Error {
  override readonly name = "CelCostLimitError";
  constructor() {
    super(COST_LIMIT_EXCEEDED);
  }
}

interface Meter {
  used: number;
  limit: number;
}

let meter: Meter | undefined;
let installed = false;

type Run = (this: unknown, ast: unknown, ctx: unknown) => unknown;

/** Wraps the evaluator's node dispatch of `env` (once per process) to charge the meter. */
export function installMeter(env: Environment): void {
  if (installed) return;
  const probe = env.parse("0") as unknown as ((vars: object) => unknown) & {
    ast: { evaluate: (ev: object, ast: unknown, ctx: unknown) => unknown };
  };
  const node = probe.ast;
  const evaluate = node.evaluate;
  let proto: { run: Run } | undefined;
  node.evaluate = function (this: unknown, ev: object, ast: unknown, ctx: unknown) {
    proto = Object.getPrototypeOf(ev) as { run: Run };
    return evaluate.call(this, ev, ast, ctx);
  };
  probe({});
  if (!proto || typeof proto.run !== "function") {
    throw new Error("cel-js evaluator has no run(); the CEL cost meter cannot be installed");
  }
  const run = proto.run;
  proto.run = function (this: unknown, ast: unknown, ctx: unknown) {
    if (meter && ++meter.used > meter.limit) throw new CelCostLimitError();
    return run.call(this, ast, ctx);
  };
  installed = true;
}

/** Runs `fn` with a meter of `limit` units; returns its result and the units used. */
export function metered<T>(limit: number, fn: () => T): { value: T; cost: number } {
  const outer = meter;
  const m: Meter = { used: 1, limit };
  meter = m;
  let value: T;
  try {
    value = fn();
  } catch (e) {
    // CEL's || and && absorb errors, so the limit is judged by the units used, not by what
    // reached the caller.
    if (m.used > m.limit) throw new CelCostLimitError();
    throw e;
  } finally {
    meter = outer;
  }
  if (m.used > m.limit) throw new CelCostLimitError();
  return { value, cost: m.used };
}
