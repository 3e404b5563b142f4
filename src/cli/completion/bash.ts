/**
 * The bash completion script: three lookup functions generated from the model (subcommands and
 * flags of a command path, the value a flag takes) and one completion function that finds the
 * command path in the words typed so far and completes the word under the cursor. bash splits
 * `--flag=value` at `=` (COMP_WORDBREAKS), so a value after `=` is completed too.
 */
import type { CommandSpec } from "./model.js";

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function lookups(model: readonly CommandSpec[]): string {
  const subcommands = model
    .filter((c) => c.subcommands.length > 0 || c.argChoices.length > 0)
    .map(
      (c) =>
        `    ${quote(c.path)}) echo ${quote([...c.subcommands.map((s) => s.name), ...c.argChoices].join(" "))} ;;`,
    );
  const flags = model.map(
    (c) => `    ${quote(c.path)}) echo ${quote(c.flags.flatMap((f) => f.names).join(" "))} ;;`,
  );
  const values = model.flatMap((c) =>
    c.flags.map((f) => {
      const keys = f.names.map((n) => quote(`${c.path} ${n}`)).join("|");
      const spec = f.value === "choices" ? `choices ${f.choices.join(" ")}` : f.value;
      return `    ${keys}) echo ${quote(spec)} ;;`;
    }),
  );
  return [
    "# The subcommands (and argument choices) of a command path.",
    "_opgen_words() {",
    '  case "$1" in',
    ...subcommands,
    "  esac",
    "}",
    "",
    "# The flags of a command path.",
    "_opgen_flags() {",
    '  case "$1" in',
    ...flags,
    "  esac",
    "}",
    "",
    "# What a flag of a command path takes: bool, word, file, dir or choices <values>.",
    "_opgen_value() {",
    '  case "$1 $2" in',
    ...values,
    "  esac",
    "}",
  ].join("\n");
}

const COMPLETE = `
# COMPREPLY from the lines of stdin (bash 3.2 has no mapfile).
_opgen_reply() {
  local line
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}

_opgen() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" flag="" spec w i
  COMPREPLY=()
  # The command path: subcommand words, skipping the value after a flag that takes one.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    spec="$(_opgen_value "$path" "$w")"
    if [[ -n $spec && $spec != bool && \${COMP_WORDS[i + 1]} != "=" ]]; then
      ((i++))
      continue
    fi
    if [[ " $(_opgen_words "$path") " == *" $w "* && $w != -* ]]; then path="$path/$w"; fi
  done
  # The value of a flag: after "--flag=" (bash splits at "=") or after "--flag ".
  if [[ $cur == "=" ]]; then
    flag="\${COMP_WORDS[COMP_CWORD - 1]}"
    cur=""
  elif [[ $COMP_CWORD -gt 1 && \${COMP_WORDS[COMP_CWORD - 1]} == "=" ]]; then
    flag="\${COMP_WORDS[COMP_CWORD - 2]}"
  elif [[ $COMP_CWORD -gt 1 ]]; then
    spec="$(_opgen_value "$path" "\${COMP_WORDS[COMP_CWORD - 1]}")"
    if [[ -n $spec && $spec != bool ]]; then flag="\${COMP_WORDS[COMP_CWORD - 1]}"; fi
  fi
  if [[ -n $flag ]]; then
    spec="$(_opgen_value "$path" "$flag")"
    case "$spec" in
      bool) _opgen_reply < <(compgen -W "true false" -- "$cur") ;;
      choices\\ *) _opgen_reply < <(compgen -W "\${spec#choices }" -- "$cur") ;;
      file)
        compopt -o filenames 2>/dev/null
        _opgen_reply < <(compgen -f -- "$cur")
        ;;
      dir)
        compopt -o filenames 2>/dev/null
        _opgen_reply < <(compgen -d -- "$cur")
        ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    _opgen_reply < <(compgen -W "$(_opgen_flags "$path")" -- "$cur")
  else
    _opgen_reply < <(compgen -W "$(_opgen_words "$path")" -- "$cur")
  fi
  return 0
}

complete -F _opgen opgen
`;

export function bashScript(model: readonly CommandSpec[]): string {
  return `# bash completion for opgen, printed by \`opgen completion bash\`.\n# Install: see docs/cli.md ("Shell completion").\n\n${lookups(model)}\n${COMPLETE}`;
}
