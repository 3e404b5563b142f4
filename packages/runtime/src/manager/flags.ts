/**
 * `managerOptionsFromArgs`: the command-line flags a kubebuilder main.go defines, parsed into
 * ManagerOptions. Accepts `--flag value`, `--flag=value` and Go's single-dash forms; boolean flags
 * take an optional `=true|false`. Unknown flags are rejected with one line, as Go's flag package.
 */
import type { LogLevel } from "../log/logger.js";
import type { ManagerOptions } from "./options.js";

export class FlagError extends Error {
  override readonly name = "FlagError";
}

const usage = `Usage of manager:
  --metrics-bind-address string       The address the metrics endpoint binds to. Use :8443 for HTTPS or :8080 for HTTP, or leave as 0 to disable the metrics service. (default "0")
  --metrics-secure                    If set, the metrics endpoint is served securely via HTTPS. Use --metrics-secure=false to use HTTP instead. (default true)
  --metrics-cert-path string          The directory that contains the metrics server certificate.
  --metrics-cert-name string          The name of the metrics server certificate file. (default "tls.crt")
  --metrics-cert-key string           The name of the metrics server key file. (default "tls.key")
  --enable-http2                      If set, HTTP/2 will be enabled for the metrics and webhook servers.
  --webhook-cert-path string          The directory that contains the webhook certificate. (default "<tmpdir>/k8s-webhook-server/serving-certs")
  --webhook-cert-name string          The name of the webhook certificate file. (default "tls.crt")
  --webhook-cert-key string           The name of the webhook key file. (default "tls.key")
  --webhook-port int                  Port the webhook server listens on. (default 9443)
  --webhook-host string               The address the webhook server binds to. (default: all interfaces)
  --health-probe-bind-address string  The address the probe endpoint binds to. Use 0 to disable. (default ":8081")
  --leader-elect                      Enable leader election for controller manager.
  --kubeconfig string                 Path to a kubeconfig. Only required if out-of-cluster.
  --zap-devel                         Development mode: human-readable logs, debug level.
  --log-level string                  Log level: debug, info, warn or error. (default $OPGEN_LOG_LEVEL, else "info")`;

const valueFlags = new Set([
  "metrics-bind-address",
  "metrics-cert-path",
  "metrics-cert-name",
  "metrics-cert-key",
  "webhook-cert-path",
  "webhook-cert-name",
  "webhook-cert-key",
  "webhook-port",
  "webhook-host",
  "health-probe-bind-address",
  "kubeconfig",
  "log-level",
]);
const boolFlags = new Set(["leader-elect", "zap-devel", "metrics-secure", "enable-http2"]);
const levels = new Set<LogLevel>(["debug", "info", "warn", "error"]);

/** Parses flags; throws FlagError (with `exitOnError: false`) or prints one line and exits 2. */
export function managerOptionsFromArgs(
  args: readonly string[],
  opts: { exitOnError?: boolean } = {},
): ManagerOptions {
  try {
    return parse(args);
  } catch (err) {
    if (opts.exitOnError === false || !(err instanceof FlagError)) throw err;
    if (err.message === "help") {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}

function parse(args: readonly string[]): ManagerOptions {
  // Kubebuilder v4's main.go: metrics off unless bound (config/default's manager_metrics_patch
  // sets :8443), and served over HTTPS behind TokenReview/SubjectAccessReview when they are.
  const out: ManagerOptions = {
    metricsBindAddress: "0",
    metricsSecure: true,
    healthProbeBindAddress: ":8081",
    leaderElection: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (!arg.startsWith("-"))
      throw new FlagError(`unexpected argument "${arg}"; run with --help for usage`);
    if (arg === "-h" || arg === "--help" || arg === "-help") throw new FlagError("help");
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq >= 0 ? body.slice(0, eq) : body;
    let value = eq >= 0 ? body.slice(eq + 1) : undefined;
    if (boolFlags.has(name)) {
      if (value !== undefined && value !== "true" && value !== "false") {
        throw new FlagError(`invalid boolean value "${value}" for -${name}`);
      }
      const on = value !== "false";
      if (name === "leader-elect") out.leaderElection = on;
      else if (name === "metrics-secure") out.metricsSecure = on;
      else if (name === "enable-http2") out.enableHttp2 = on;
      else out.development = on;
      continue;
    }
    if (!valueFlags.has(name))
      throw new FlagError(`flag provided but not defined: -${name}; run with --help for usage`);
    if (value === undefined) {
      value = args[++i];
      if (value === undefined) throw new FlagError(`flag needs an argument: -${name}`);
    }
    switch (name) {
      case "metrics-bind-address":
        out.metricsBindAddress = value;
        break;
      case "metrics-cert-path":
        out.metricsCertPath = value;
        break;
      case "metrics-cert-name":
        out.metricsCertName = value;
        break;
      case "metrics-cert-key":
        out.metricsCertKey = value;
        break;
      case "webhook-cert-path":
        out.webhookServer = { ...out.webhookServer, certDir: value };
        break;
      case "webhook-cert-name":
        out.webhookServer = { ...out.webhookServer, certName: value };
        break;
      case "webhook-cert-key":
        out.webhookServer = { ...out.webhookServer, keyName: value };
        break;
      case "webhook-host":
        // controller-runtime's webhook.Options.Host; `opgen dev` binds to loopback with it.
        out.webhookServer = { ...out.webhookServer, host: value };
        break;
      case "webhook-port": {
        const port = Number(value);
        if (!/^\d+$/.test(value) || port > 65535) {
          throw new FlagError(
            `invalid value "${value}" for -webhook-port: use a port number from 0 to 65535`,
          );
        }
        out.webhookServer = { ...out.webhookServer, port };
        break;
      }
      case "health-probe-bind-address":
        out.healthProbeBindAddress = value;
        break;
      case "kubeconfig":
        out.kubeconfig = value;
        break;
      case "log-level":
        if (!levels.has(value as LogLevel)) {
          throw new FlagError(
            `invalid value "${value}" for -log-level: use debug, info, warn or error`,
          );
        }
        out.logLevel = value as LogLevel;
        break;
    }
  }
  return out;
}
