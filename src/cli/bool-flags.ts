/**
 * Boolean flags read as Kubebuilder's are (cobra's pflag, `NoOptDefVal = "true"`): `--force` alone
 * means true, and a value is attached with `=` (`--resource=false`, `--namespaced=true`). A
 * separate word after a boolean flag is never its value: pflag leaves `--resource false` with
 * `false` as an argument, and opgen refuses that argument with the spelling that works. Commander
 * alone would either refuse `--resource=false` (a flag without a value) or, for an optional value,
 * swallow the next word; so leaf commands take their boolean flags out of the arguments here,
 * before commander parses the rest.
 */
import type { Command, Option } from "commander";

/** strconv.ParseBool's spellings, which pflag accepts. */
const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

export function parseBoolValue(text: string): boolean | undefined {
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return undefined;
}

/** A flag commander declares without a value: `--force`, or a negation such as `--no-gc`. */
export function isBooleanOption(option: Option): boolean {
  return !option.required && !option.optional;
}

interface Taken {
  /** The arguments left for commander. */
  rest: string[];
  /** Final value per option attribute (the last occurrence wins, as in pflag). */
  values: Map<string, boolean>;
}

/**
 * Takes `cmd`'s boolean flags (bare or `--flag=<bool>`) out of `args`. Throws, through
 * `cmd.error`, on a value that is not a boolean and on a boolean word written after a bare flag
 * of a command that takes no arguments.
 */
export function takeBooleanFlags(cmd: Command, args: readonly string[]): Taken {
  const booleans = new Map<string, Option>();
  const valued = new Map<string, Option>();
  for (const option of cmd.options) {
    const names = [option.long, option.short].filter((n): n is string => n !== undefined);
    for (const name of names) (isBooleanOption(option) ? booleans : valued).set(name, option);
  }
  const rest: string[] = [];
  const values = new Map<string, boolean>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      rest.push(...args.slice(i));
      break;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const option = booleans.get(name);
    if (option) {
      const value = eq > 0 ? flagValue(cmd, name, arg.slice(eq + 1)) : true;
      if (eq < 0) refuseDetachedValue(cmd, name, args[i + 1]);
      values.set(option.attributeName(), option.negate ? !value : value);
      continue;
    }
    rest.push(arg);
    // A flag that takes a value consumes the next word (commander's rule), whatever it looks like.
    const takes = valued.get(arg);
    const next = args[i + 1];
    if (takes && next !== undefined && (takes.required || !next.startsWith("-"))) {
      rest.push(next);
      i++;
    }
  }
  return { rest, values };
}

function flagValue(cmd: Command, name: string, text: string): boolean {
  const value = parseBoolValue(text);
  if (value === undefined) {
    cmd.error(
      `option '${name}' argument '${text}' is invalid: expected true or false (${name}=true or ${name}=false)`,
      { code: "commander.invalidArgument", exitCode: 1 },
    );
  }
  return value!;
}

function refuseDetachedValue(cmd: Command, name: string, next: string | undefined): void {
  if (next === undefined || parseBoolValue(next) === undefined) return;
  if (cmd.registeredArguments.length > 0) return;
  cmd.error(
    `unexpected argument '${next}' after ${name}: a boolean flag takes its value after '=' (${name}=${next}), as in Kubebuilder`,
    { code: "commander.excessArguments", exitCode: 1 },
  );
}
