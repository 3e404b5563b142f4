/**
 * The opgen command line: declares commands and flags with commander and turns failures into a
 * one-line message and an exit code. Each command's implementation is imported only when that
 * command runs, so `opgen --help` never loads ts-morph, handlebars or @kubernetes/client-node.
 */
import { Argument, type Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { OpgenCommand } from "./cli/command.js";
import { CliError, CliErrors, fileSystemErrorMessage } from "./util/errors.js";
import { oneLineYamlMessage } from "./util/yaml-errors.js";
import { opgenVersion } from "./version.js";

function parseInteger(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(value);
  };
}

function parsePort(value: string): number {
  const port = parseInteger("--port")(value);
  if (port > 65535) throw new InvalidArgumentError("--port must be at most 65535 (0: a free port)");
  return port;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function buildProgram(): Command {
  const program = new OpgenCommand("opgen")
    .description("Kubebuilder for TypeScript: scaffold, generate and run Kubernetes operators")
    .version(opgenVersion(), "-v, --version")
    .showSuggestionAfterError(true)
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ outputError: () => {} });

  program
    .command("init")
    .description("scaffold a new operator project in the current directory")
    .option("--domain <domain>", "domain of the project's API groups", "my.domain")
    .option("--project-name <name>", "project name (default: the directory name)")
    .option("--owner <name>", "copyright owner written in the license header")
    .addOption(
      new Option("--license <license>", "license of the project")
        .choices(["apache2", "none"])
        .default("apache2"),
    )
    .option("--multigroup", "lay out APIs as src/api/<group>/<version> to hold several groups")
    .option("--runtime-spec <spec>", "npm spec for @opgen/runtime (env OPGEN_RUNTIME_SPEC)")
    .option("--envtest-spec <spec>", "npm spec for @opgen/envtest (env OPGEN_ENVTEST_SPEC)")
    .option("--opgen-spec <spec>", "npm spec for the opgen dev dependency (env OPGEN_CLI_SPEC)")
    .option(
      "--apimachinery-spec <spec>",
      "npm spec for @opgen/apimachinery, needed when the runtime comes from a tarball (env OPGEN_APIMACHINERY_SPEC)",
    )
    .option("--skip-install", "do not run npm install in the new project")
    .action(async (opts) => (await import("./commands/init.js")).runInit(opts));

  const create = program.command("create").description("add a resource to the project");
  create
    .command("api")
    .description("add an API (types, controller, sample, tests) for a new kind")
    .requiredOption("--group <group>", "API group, without the domain (e.g. demo)")
    .requiredOption("--version <version>", "API version (e.g. v1, v1beta1)")
    .requiredOption("--kind <kind>", "Kind, UpperCamelCase (e.g. AppCluster)")
    .option(
      "--plural <plural>",
      "resource plural (default: the kind pluralized as Kubebuilder does, lower-cased)",
    )
    .option("--namespaced", "namespaced; --namespaced=false for a cluster-scoped kind", true)
    .option("--resource", "scaffold the API types (--resource=false: only a controller)", true)
    .option("--controller", "scaffold a controller (--controller=false: only the API)", true)
    .option("--force", "scaffold again files that exist (types, controller, test, sample, roles)")
    .action(async (opts) => (await import("./commands/create-api.js")).runCreateApi(opts));
  create
    .command("webhook")
    .description("add defaulting, validating or conversion webhooks to a kind")
    .requiredOption("--group <group>", "API group, without the domain (e.g. demo)")
    .requiredOption("--version <version>", "API version (e.g. v1)")
    .requiredOption("--kind <kind>", "Kind, UpperCamelCase (e.g. AppCluster)")
    .option("--defaulting", "scaffold a defaulting (mutating) webhook")
    .option("--programmatic-validation", "scaffold a validating webhook")
    .option("--conversion", "scaffold a conversion webhook; this version becomes the hub")
    .option(
      "--spoke <versions>",
      "versions converted to and from the hub, comma-separated (with --conversion)",
      collect,
    )
    .option("--defaulting-path <path>", "custom path of the defaulting webhook")
    .option("--validation-path <path>", "custom path of the validating webhook")
    .option("--force", "scaffold again webhook types that exist, overwriting their files")
    .action(async (opts) => (await import("./commands/create-webhook.js")).runCreateWebhook(opts));

  program
    .command("manifests")
    .description("generate CRDs, RBAC and webhook configurations from types and markers")
    .option("--paths <dir...>", "folders holding API types (default: src/api)")
    .option("--output-dir <dir>", "where CRDs are written", "config/crd/bases")
    .option(
      "--rbac-output <file>",
      "where the manager ClusterRole is written",
      "config/rbac/role.yaml",
    )
    .option("--rbac-paths <dir...>", "folders scanned for @rbac markers (default: src)")
    .option("--role-name <name>", "name of the generated ClusterRole", "manager-role")
    .option(
      "--max-desc-len <n>",
      "truncate descriptions (0 drops them)",
      parseInteger("--max-desc-len"),
    )
    .option("--check", "write nothing; fail listing stale or missing files with a diff")
    .option("--prune", "remove CRD files of kinds that no longer exist")
    .option("--strict", "treat warnings as errors")
    .option(
      "--rbac-report",
      "print the permissions each controller's markers grant and what is missing",
    )
    .action(async (opts) => (await import("./commands/manifests.js")).runManifests(opts));

  program
    .command("markers")
    .argument("[name]", "one marker to describe")
    .description("list the markers opgen understands, with their arguments")
    .action(async (name, opts) => (await import("./commands/markers.js")).runMarkers(name, opts));

  program
    .command("envtest")
    .description("run the embedded Kubernetes API server in the foreground")
    .option("--crd-dir <dir>", "install CRDs from this folder (repeatable)", collect)
    .option("--kubeconfig <file>", "where to write the kubeconfig", "envtest.kubeconfig")
    .option("--port <n>", "port to listen on (default: random)", parsePort)
    .option("--no-gc", "disable garbage collection of dependents")
    .option(
      "--simulate",
      "simulate a node, the kubelet and workload controllers (pods Running and Ready; Deployments, StatefulSets, DaemonSets create pods; Jobs complete)",
    )
    .addOption(
      new Option("--auth <mode>", "authorization mode").choices(["none", "rbac"]).default("none"),
    )
    .action(async (opts) => (await import("./commands/envtest.js")).runEnvtest(opts));

  program
    .command("dev")
    .description("start the embedded API server, install the CRDs and run the operator against it")
    .option(
      "--kubeconfig <file>",
      "where to write the kubeconfig for kubectl",
      "envtest.kubeconfig",
    )
    .option("--port <n>", "port of the API server (default: random)", parsePort)
    .option("--simulate", "simulate kubelet and built-in controllers", true)
    .option("--no-simulate", "do not simulate kubelet and built-in controllers")
    .option("--no-build", "do not build the operator before starting it (nor watch src/)")
    .option("--no-watch", "do not rebuild and restart the operator when src/ changes")
    .action(async (opts) => (await import("./commands/dev.js")).runDev(opts));

  program
    .command("completion")
    .description("print a shell completion script (see docs/cli.md to install it)")
    .addArgument(new Argument("<shell>", "the shell").choices(["bash", "zsh", "fish"]))
    .action(async (shell) =>
      (await import("./commands/completion.js")).runCompletion(shell, program),
    );

  return program;
}

/** Runs the CLI and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // A reader that stops early (`opgen markers | head`) ends the output, not the process with a
  // stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv as string[]);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    // --help and --version end with a "success" CommanderError.
    if (error.exitCode === 0) return 0;
    // One line: commander puts its "(Did you mean ...?)" on a line of its own.
    const message = error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ");
    process.stderr.write(
      `opgen: ${message}${/\(add --help/.test(message) ? "" : " (see opgen --help)"}\n`,
    );
    return error.exitCode || 1;
  }
  if (error instanceof CliError) {
    // A YAML error quoted by a dependency (envtest reading CRDs) comes with a code frame.
    const message = error instanceof CliErrors ? error.message : oneLineYamlMessage(error.message);
    process.stderr.write(
      `${message
        .split("\n")
        .map((l) => `opgen: ${l}`)
        .join("\n")}\n`,
    );
    return error.exitCode;
  }
  const err = error as Error;
  if (process.env.OPGEN_DEBUG) process.stderr.write(`${err?.stack ?? String(error)}\n`);
  const fsMessage = fileSystemErrorMessage(error);
  if (fsMessage) {
    process.stderr.write(`opgen: ${fsMessage}\n`);
    return 1;
  }
  process.stderr.write(
    `opgen: internal error: ${err?.message ?? String(error)} (rerun with OPGEN_DEBUG=1 for the stack, and report it)\n`,
  );
  return 2;
}
