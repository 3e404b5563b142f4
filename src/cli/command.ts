/**
 * The opgen command class, which every subcommand made with `.command()` is too: leaf commands
 * read their boolean flags as Kubebuilder's pflag does (`bool-flags.ts`), and a command run
 * without its subcommand (`opgen`, `opgen create`) shows its help on stdout and exits 0, as
 * Kubebuilder's cobra commands do, instead of failing with the help on stderr.
 */
import { Command, type HelpContext } from "commander";
import { takeBooleanFlags } from "./bool-flags.js";

export class OpgenCommand extends Command {
  override createCommand(name?: string): Command {
    return new OpgenCommand(name);
  }

  override parseOptions(args: string[]): { operands: string[]; unknown: string[] } {
    if (this.commands.length > 0) return super.parseOptions(args);
    const { rest, values } = takeBooleanFlags(this, args);
    const parsed = super.parseOptions(rest);
    for (const [attribute, value] of values) this.setOptionValueWithSource(attribute, value, "cli");
    return parsed;
  }

  override help(context?: HelpContext | ((str: string) => string)): never {
    const onStdout = typeof context === "object" && context.error ? undefined : context;
    return super.help(onStdout as HelpContext | undefined);
  }
}
