/**
 * The fish completion script: `__opgen_path` finds the command path in the words typed so far,
 * and one `complete` line per subcommand and flag, generated from the model, offers it where the
 * path matches. fish completes `--flag=value` and `--flag value` itself from `-a` and `-F`.
 */
import type { CommandSpec, FlagSpec } from "./model.js";

const quote = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

function flagLine(path: string, flag: FlagSpec): string {
  const names = flag.names.map((n) =>
    n.startsWith("--") ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`,
  );
  const value =
    flag.value === "bool"
      ? ""
      : flag.value === "choices"
        ? ` -x -a ${quote(flag.choices.join(" "))}`
        : flag.value === "file"
          ? " -r -F"
          : flag.value === "dir"
            ? " -x -a '(__fish_complete_directories)'"
            : " -x";
  return `complete -c opgen -n ${quote(`__opgen_at ${quote(path)}`)} ${names.join(" ")}${value} -d ${quote(flag.help)}`;
}

function lines(model: readonly CommandSpec[]): string[] {
  const out: string[] = [];
  for (const c of model) {
    const at = quote(`__opgen_at ${quote(c.path)}`);
    for (const s of c.subcommands) {
      out.push(`complete -c opgen -n ${at} -a ${quote(s.name)} -d ${quote(s.help)}`);
    }
    if (c.argChoices.length > 0)
      out.push(`complete -c opgen -n ${at} -a ${quote(c.argChoices.join(" "))}`);
    for (const f of c.flags) out.push(flagLine(c.path, f));
  }
  return out;
}

function pathFunction(model: readonly CommandSpec[]): string {
  const transitions = model.flatMap((c) => c.subcommands.map((s) => quote(`${c.path} ${s.name}`)));
  const valued = model.flatMap((c) =>
    c.flags
      .filter((f) => f.value !== "bool")
      .flatMap((f) => f.names.map((n) => quote(`${c.path} ${n}`))),
  );
  return [
    "# The command path of the words before the cursor: /create/api for `opgen create api --kind X`.",
    "function __opgen_path",
    "    set -l path ''",
    "    set -l skip 0",
    "    for w in (commandline -opc)[2..-1]",
    "        if test $skip = 1",
    "            set skip 0",
    "            continue",
    "        end",
    '        switch "$path $w"',
    `            case ${valued.join(" ")}`,
    "                set skip 1",
    `            case ${transitions.join(" ")}`,
    '                set path "$path/$w"',
    "        end",
    "    end",
    "    echo $path",
    "end",
    "",
    "function __opgen_at",
    "    set -l path (__opgen_path)",
    '    test "$path" = "$argv[1]"',
    "end",
  ].join("\n");
}

export function fishScript(model: readonly CommandSpec[]): string {
  return `# fish completion for opgen, printed by \`opgen completion fish\`.\n# Install: see docs/cli.md ("Shell completion").\n\n${pathFunction(model)}\n\ncomplete -c opgen -f\n${lines(model).join("\n")}\n`;
}
