/**
 * CEL function namespaces (`strings.quote`, `sets.contains`, `format.named`, `ip.isCanonical`).
 * cel-js has no namespaced functions, so each namespace is a constant of its own type and its
 * functions are methods of that type: the expressions read and check exactly as in cel-go.
 */
import type { Environment } from "@marcbachmann/cel-js";

/** Declares `name` as a namespace (once per environment) and returns its type name. */
export function namespace(env: Environment, name: string): string {
  const type = name;
  if (!env.hasVariable(name)) {
    const Namespace = { [name]: class {} }[name] as new () => object;
    env.registerType(type, Namespace);
    env.registerConstant(name, type, new Namespace());
  }
  return type;
}
