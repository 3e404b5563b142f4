/**
 * `opgen completion bash|zsh|fish` through the built CLI: each script parses in its shell and
 * completes commands, subcommands, flags and flag values when the shell drives it. bash is driven
 * as readline does (COMP_WORDS, COMP_CWORD, then the function `complete -p opgen` names); zsh
 * through `_opgen` with its completion builtins stubbed to print; fish by `complete -C`. zsh and
 * fish run where they are installed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";

const dir = tempDir("opgen-completion-");
const scripts: Record<string, string> = {};

beforeAll(async () => {
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = await runCli(["completion", shell], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    scripts[shell] = join(dir, `opgen.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
});

const installed = async (shell: string) =>
  (await execa(shell, ["-c", "exit 0"], { reject: false }).catch(() => ({ exitCode: 1 })))
    .exitCode === 0;
const hasZsh = await installed("zsh");
const hasFish = await installed("fish");

/** What bash completes for the words typed (the last one under the cursor). */
async function bash(words: string[]): Promise<string[]> {
  const driver = [
    `source ${scripts.bash}`,
    'fn=$(complete -p opgen | sed -E "s/.*-F ([^ ]+).*/\\1/")',
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")})`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell code
    "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))",
    '"$fn"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell code
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const r = await execa("bash", ["-c", driver], { cwd: dir });
  return r.stdout.split("\n").filter(Boolean);
}

describe("opgen completion bash", () => {
  it("prints a script bash parses, registered for opgen", async () => {
    await execa("bash", ["-n", scripts.bash!]);
    const r = await execa("bash", ["-c", `source ${scripts.bash}; complete -p opgen`]);
    expect(r.stdout).toBe("complete -F _opgen opgen");
  });

  it.each([
    [["opgen", "cre"], ["create"]],
    [["opgen", "create", "a"], ["api"]],
    [["opgen", "create", "api", "--con"], ["--controller"]],
    [["opgen", "create", "webhook", "--defaulting", "--pro"], ["--programmatic-validation"]],
    [
      ["opgen", "create", "api", "--resource", "="],
      ["true", "false"],
    ],
    [["opgen", "create", "api", "--resource", "=", "f"], ["false"]],
    [
      ["opgen", "init", "--license", ""],
      ["apache2", "none"],
    ],
    [["opgen", "init", "--license", "=", "a"], ["apache2"]],
    [
      ["opgen", "envtest", "--auth", ""],
      ["none", "rbac"],
    ],
    [["opgen", "completion", "z"], ["zsh"]],
    // A flag's value is not a subcommand: `create` here is the domain.
    [["opgen", "init", "--domain", "create", "--sk"], ["--skip-install"]],
    [["opgen", "init", "--domain", "create", ""], []],
  ])("completes %j to %j", async (words, expected) => {
    expect(await bash(words)).toEqual(expected);
  });

  it("lists every command, and the flags of one", async () => {
    expect(await bash(["opgen", ""])).toEqual([
      "init",
      "create",
      "manifests",
      "markers",
      "envtest",
      "dev",
      "completion",
    ]);
    expect(await bash(["opgen", "manifests", "--"])).toEqual(
      expect.arrayContaining(["--check", "--prune", "--strict", "--output-dir", "--help"]),
    );
  });

  it("completes folders after a flag that takes one", async () => {
    const root = tempDir("opgen-completion-dirs-");
    const r = await execa("bash", [
      "-c",
      `source ${scripts.bash}; COMP_WORDS=(opgen manifests --output-dir ${root}/); COMP_CWORD=3; mkdir ${root}/crds; touch ${root}/file; _opgen; printf "%s\\n" "\${COMPREPLY[@]}"`,
    ]);
    expect(r.stdout.split("\n")).toEqual([`${root}/crds`]);
  });
});

describe.skipIf(!hasZsh)("opgen completion zsh", () => {
  async function zsh(words: string[]): Promise<string> {
    const driver = [
      "compdef() { :; }",
      'compadd() { [[ $1 == -- ]] && shift; print -r -- "$@"; }',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell code
      "_describe() { local arr=${@[-1]}; print -r -- ${${(P)arr}%%:*}; }",
      "compset() { :; }",
      '_files() { print -r -- "files $*"; }',
      `source ${scripts.zsh}`,
      `words=(${words.map((w) => `'${w}'`).join(" ")})`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell code
      "CURRENT=${#words}",
      "_opgen",
    ].join("\n");
    // A completion function returns 1 when it found nothing to offer.
    return (await execa("zsh", ["-f", "-c", driver], { reject: false })).stdout;
  }

  it("prints a script zsh parses", async () => {
    await execa("zsh", ["-n", scripts.zsh!]);
  });

  it.each([
    [["opgen", "cre"], "init create manifests markers envtest dev completion"],
    [["opgen", "create", "a"], "api webhook"],
    [["opgen", "create", "api", "--resource="], "true false"],
    [["opgen", "init", "--license", ""], "apache2 none"],
    [["opgen", "manifests", "--paths", ""], "files -/"],
    [["opgen", "init", "--domain", "create", ""], ""],
  ])("offers %j: %s", async (words, expected) => {
    expect(await zsh(words)).toBe(expected);
  });
});

describe.skipIf(!hasFish)("opgen completion fish", () => {
  async function fish(line: string): Promise<string[]> {
    const r = await execa("fish", ["-c", `source ${scripts.fish}; complete -C '${line}'`]);
    return r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t")[0]!);
  }

  it("prints a script fish parses", async () => {
    await execa("fish", ["-n", scripts.fish!]);
  });

  it.each([
    ["opgen cre", ["create"]],
    ["opgen create a", ["api"]],
    ["opgen create api --con", ["--controller"]],
    ["opgen init --license=", ["--license=apache2", "--license=none"]],
    ["opgen completion ", ["bash", "fish", "zsh"]],
    ["opgen init --domain create ", []],
  ])("completes %j to %j", async (line, expected) => {
    expect(await fish(line)).toEqual(expected);
  });
});

it("refuses a shell it has no script for, in one line", async () => {
  const r = await runCli(["completion", "tcsh"], dir);
  expect(r.exitCode).toBe(1);
  expect(r.stderr.trim().split("\n")).toEqual([
    "opgen: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish. (see opgen --help)",
  ]);
});
