/** Manager options and their defaults, in one place (controller-runtime's manager.Options). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Registry } from "prom-client";
import type { CacheOptions } from "../cache/cache.js";
import type { ControllerOptions } from "../controller/controller.js";
import type { Logger, LogLevel } from "../log/logger.js";
import type { AuthFilterOptions } from "../metrics/authn-authz.js";
import type { WebhookServerOptions } from "../webhook/server.js";

export interface ManagerOptions {
  /**
   * The cluster: a loaded `KubeConfig`, or the path of a kubeconfig file (the `--kubeconfig` flag);
   * otherwise KUBECONFIG, ~/.kube/config or in-cluster.
   */
  kubeconfig?: string | KubeConfig;
  /** Where /metrics listens (default ":8080"; "0" disables). */
  metricsBindAddress?: string;
  /**
   * Serve /metrics over HTTPS, callers authenticated by TokenReview and authorized by
   * SubjectAccessReview (`get` on the path), as Kubebuilder's `--metrics-secure`. Default false
   * here, as controller-runtime's `SecureServing`; `managerOptionsFromArgs` defaults it to true.
   * The manager's identity needs `create` on tokenreviews and subjectaccessreviews.
   */
  metricsSecure?: boolean;
  /** Folder with the metrics serving certificate, reloaded on change; none: self-signed. */
  metricsCertPath?: string;
  /** Certificate and key file names in metricsCertPath (default "tls.crt" and "tls.key"). */
  metricsCertName?: string;
  metricsCertKey?: string;
  /** Offer HTTP/2 on the metrics server (default false, as Kubebuilder's `--enable-http2`). */
  enableHttp2?: boolean;
  /** Cache lifetimes and review limits of the secure metrics filter (controller-runtime's by default). */
  metricsAuth?: AuthFilterOptions;
  /** Where /healthz and /readyz listen (default "0": disabled, as controller-runtime). */
  healthProbeBindAddress?: string;
  /** Run controllers only while holding the leader Lease (default false). */
  leaderElection?: boolean;
  /** The Lease name; required with leaderElection. */
  leaderElectionId?: string;
  /** The Lease namespace (default: the pod's namespace in-cluster, else the kubeconfig context's, else "default"). */
  leaderElectionNamespace?: string;
  /** ms; defaults 15 000 / 10 000 / 2 000 as controller-runtime. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Release the lease on a clean stop (default true), so a successor takes over at once. */
  leaderElectionReleaseOnCancel?: boolean;
  /** Namespaces the cache watches (default: all). */
  namespaces?: string[];
  /** Finer cache settings (per-kind scoping, resync period, watch backoff). */
  cache?: CacheOptions;
  /** How long in-flight reconciles may take to finish on stop, in ms (default 30 000). */
  gracefulShutdownTimeoutMs?: number;
  /** How long to wait for caches to sync at start, in ms (default 120 000); exceeding it fails start. */
  cacheSyncTimeoutMs?: number;
  /** Defaults for every controller's options. */
  controller?: ControllerOptions;
  /** Field manager for writes and server-side apply (default "opgen"). */
  fieldOwner?: string;
  logger?: Logger;
  logLevel?: LogLevel;
  /** Human-readable logs (the `--zap-devel` flag). */
  development?: boolean;
  /** Registry for metrics (default: a fresh one per manager). */
  metricsRegistry?: Registry;
  /**
   * The webhook server, started when a webhook or conversion is registered: port (default 9443),
   * host (default all), certDir (default `<tmpdir>/k8s-webhook-server/serving-certs`), certName and
   * keyName (default tls.crt and tls.key); the `--webhook-cert-*` flags set the last three.
   */
  webhookServer?: WebhookServerOptions;
}

export const managerDefaults = {
  metricsBindAddress: ":8080",
  healthProbeBindAddress: "0",
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  gracefulShutdownTimeoutMs: 30_000,
  cacheSyncTimeoutMs: 120_000,
} as const;
