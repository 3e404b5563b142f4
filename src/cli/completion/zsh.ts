/**
 * The zsh completion script (a `#compdef` function, or `compdef`-registered when sourced): lookup
 * functions generated from the model fill `reply` with `name:description` pairs, and `_opgen`
 * finds the command path in `words` and completes the word under the cursor, with descriptions.
 * zsh keeps `--flag=value` in one word, so a value after `=` is completed with `compset -P`.
 */
import type { CommandSpec } from "./model.js";

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
/** `name:description` for _describe, whose separator is `:`. */
const pair = (name: string, help: string) => quote(`${name}:${help.replaceAll(":", "\\:")}`);

function lookups(model: readonly CommandSpec[]): string {
  const words = model
    .filter((c) => c.subcommands.length > 0 || c.argChoices.length > 0)
    .map((c) => {
      const items = [
        ...c.subcommands.map((s) => pair(s.name, s.help)),
        ...c.argChoices.map((a) => pair(a, a)),
      ];
      return `    (${quote(c.path)}) reply=(${items.join(" ")}) ;;`;
    });
  const flags = model.map((c) => {
    const items = c.flags.flatMap((f) => f.names.map((n) => pair(n, f.help)));
    return `    (${quote(c.path)}) reply=(${items.join(" ")}) ;;`;
  });
  const values = model.flatMap((c) =>
    c.flags.map((f) => {
      const keys = f.names.map((n) => quote(`${c.path} ${n}`)).join("|");
      const spec = f.value === "choices" ? `choices ${f.choices.join(" ")}` : f.value;
      return `    (${keys}) REPLY=${quote(spec)} ;;`;
    }),
  );
  return [
    "_opgen_words() {",
    "  reply=()",
    '  case "$1" in',
    ...words,
    "  esac",
    "}",
    "",
    "_opgen_flags() {",
    "  reply=()",
    '  case "$1" in',
    ...flags,
    "  esac",
    "}",
    "",
    "# What a flag takes: bool, word, file, dir or choices <values>; empty for no flag.",
    "_opgen_value() {",
    "  REPLY=",
    '  case "$1 $2" in',
    ...values,
    "  esac",
    "}",
  ].join("\n");
}

const COMPLETE = `
_opgen() {
  local cur=\${words[CURRENT]} path="" flag="" w i REPLY
  local -a reply
  # The command path: subcommand words, skipping the value after a flag that takes one.
  for (( i = 2; i < CURRENT; i++ )); do
    w=\${words[i]}
    _opgen_value "$path" "$w"
    if [[ -n $REPLY && $REPLY != bool ]]; then
      (( i++ ))
      continue
    fi
    _opgen_words "$path"
    if [[ $w != -* && \${reply[(I)$w:*]} -gt 0 ]]; then path="$path/$w"; fi
  done
  if [[ $cur == --*=* ]]; then
    flag=\${cur%%=*}
    compset -P '*='
  elif (( CURRENT > 2 )); then
    _opgen_value "$path" "\${words[CURRENT-1]}"
    if [[ -n $REPLY && $REPLY != bool ]]; then flag=\${words[CURRENT-1]}; fi
  fi
  if [[ -n $flag ]]; then
    _opgen_value "$path" "$flag"
    case $REPLY in
      (bool) compadd -- true false ;;
      (choices\\ *) compadd -- \${=REPLY#choices } ;;
      (file) _files ;;
      (dir) _files -/ ;;
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    _opgen_flags "$path"
    _describe -t options option reply
  else
    _opgen_words "$path"
    (( \${#reply} )) && _describe -t commands command reply
  fi
}

if [[ "\${funcstack[1]}" == "_opgen" ]]; then
  _opgen "$@"
else
  compdef _opgen opgen
fi
`;

export function zshScript(model: readonly CommandSpec[]): string {
  return `#compdef opgen\n# zsh completion for opgen, printed by \`opgen completion zsh\`.\n# Install: see docs/cli.md ("Shell completion").\n\n${lookups(model)}\n${COMPLETE}`;
}
