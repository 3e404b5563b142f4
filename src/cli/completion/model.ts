/**
 * What a shell completes for opgen, read from the commander program itself, so the scripts of
 * `opgen completion` never drift from the commands and flags: each command's path, subcommands,
 * flags (with the kind of value each takes: a boolean after `=`, a choice, a file, a folder, a
 * word) and the choices of its argument.
 */
import type { Command, Option } from "commander";
import { isBooleanOption } from "../bool-flags.js";

/** What follows a flag: nothing completable (`word`), a boolean, one of `choices`, a path. */
export type ValueKind = "bool" | "word" | "choices" | "file" | "dir";

export interface FlagSpec {
  /** `--domain`, or `-v` and `--version`. */
  names: string[];
  help: string;
  value: ValueKind;
  choices: string[];
}

export interface CommandSpec {
  /** `""` for opgen itself, else `/create/api` (subcommand names joined with `/`). */
  path: string;
  subcommands: { name: string; help: string }[];
  flags: FlagSpec[];
  /** Values of the command's argument, when it has choices (`completion <shell>`). */
  argChoices: string[];
}

const HELP: FlagSpec = {
  names: ["-h", "--help"],
  help: "display help",
  value: "bool",
  choices: [],
};

/** Every command of `program`, opgen itself first, then depth first in declaration order. */
export function completionModel(program: Command): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (cmd: Command, path: string) => {
    const visible = cmd.commands;
    out.push({
      path,
      subcommands: visible.map((c) => ({ name: c.name(), help: c.description() })),
      flags: [...cmd.options.filter((o) => !o.hidden).map(flagSpec), HELP],
      argChoices: [...(cmd.registeredArguments[0]?.argChoices ?? [])],
    });
    for (const sub of visible) visit(sub, `${path}/${sub.name()}`);
  };
  visit(program, "");
  return out;
}

function flagSpec(option: Option): FlagSpec {
  const names = [option.short, option.long].filter((n): n is string => n !== undefined);
  const help = option.description;
  if (isBooleanOption(option)) return { names, help, value: "bool", choices: [] };
  if (option.argChoices) return { names, help, value: "choices", choices: [...option.argChoices] };
  // The value's placeholder says what it is: `--paths <dir...>`, `--kubeconfig <file>`.
  const placeholder = /[<[](\w+)/.exec(option.flags)?.[1];
  const value = placeholder === "dir" ? "dir" : placeholder === "file" ? "file" : "word";
  return { names, help, value, choices: [] };
}
