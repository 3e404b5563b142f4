/** `opgen completion bash|zsh|fish`: prints the shell's completion script for opgen. */
import type { Command } from "commander";
import { bashScript } from "../cli/completion/bash.js";
import { fishScript } from "../cli/completion/fish.js";
import { completionModel } from "../cli/completion/model.js";
import { zshScript } from "../cli/completion/zsh.js";

export type Shell = "bash" | "zsh" | "fish";

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export function completionScript(shell: Shell, program: Command): string {
  return SCRIPTS[shell](completionModel(program));
}

export function runCompletion(shell: Shell, program: Command): void {
  process.stdout.write(completionScript(shell, program));
}
