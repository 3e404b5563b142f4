/**
 * The manager (controller-runtime's pkg/manager): owns the cluster connection, the shared cache,
 * the cache-backed client, the controllers, leader election, probes and metrics, and runs them in
 * order on `start`: servers, caches (synced within the timeout), leadership, controllers. On stop
 * it drains in-flight reconciles (bounded by the graceful-shutdown timeout), releases the lease
 * and closes everything; losing the lease stops it with an error.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Kind } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import { Builder } from "../builder/builder.js";
import { Cache } from "../cache/cache.js";
import type { IndexFunc } from "../cache/store.js";
import { CachedClient, type Client } from "../client/client.js";
import { loadKubeConfig } from "../client/create-client.js";
import { RestMapper } from "../client/mapper.js";
import type { Controller } from "../controller/controller.js";
import { type EventRecorder, Recorder } from "../events/recorder.js";
import { type Checker, checksHandler, parseBindAddress, ping, serve } from "../healthz/server.js";
import { RestClient } from "../internal/rest/http.js";
import { LeaderElector } from "../leaderelection/leaderelection.js";
import { createLogger, type Logger } from "../log/logger.js";
import { withAuthenticationAndAuthorization } from "../metrics/authn-authz.js";
import { RuntimeMetrics } from "../metrics/metrics.js";
import { startMetricsServer } from "../metrics/server.js";
import { WebhookServer } from "../webhook/server.js";
import { type ManagerOptions, managerDefaults } from "./options.js";

/** Something the manager runs alongside controllers. */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
  /** Start only once elected (default true). */
  needLeaderElection?: boolean;
}

export interface Manager {
  /** Cache-backed client: reads of watched kinds come from the cache. */
  readonly client: Client;
  /** A client that always reads from the API server. */
  readonly apiReader: Client;
  readonly cache: Cache;
  readonly log: Logger;
  readonly metrics: RuntimeMetrics;
  readonly kubeconfig: KubeConfig;
  /** Starts building a controller that reconciles `kind`. */
  controller<T extends KubeObject>(kind: Kind<T>): Builder<T>;
  /** Registers a field index on `kind` (call before start). */
  indexField<T extends KubeObject>(kind: Kind<T>, field: string, fn: IndexFunc<T>): void;
  addHealthzCheck(name: string, check: Checker): void;
  addReadyzCheck(name: string, check: Checker): void;
  /** An events.k8s.io/v1 recorder reporting as `name`. */
  getEventRecorder(name: string): EventRecorder;
  add(runnable: Runnable): void;
  /**
   * The webhook server (controller-runtime's GetWebhookServer): `webhookFor` and `conversionFor`
   * register with it, and the manager starts it, before the caches, only when something is
   * registered; its readiness check "webhook" is then added to /readyz.
   */
  readonly webhookServer: WebhookServer;
  /** Resolves when this manager becomes leader (at once without leader election). */
  readonly elected: Promise<void>;
  /** Ports the servers listen on after start (useful with ":0"). */
  readonly ports: { metrics?: number; healthProbe?: number; webhook?: number };
  /** Runs until `signal` aborts (resolves) or a fatal error such as losing the lease (rejects). */
  start(signal: AbortSignal): Promise<void>;
}

function defaultLeaseNamespace(kc: KubeConfig): string {
  try {
    return readFileSync("/var/run/secrets/kubernetes.io/serviceaccount/namespace", "utf8").trim();
  } catch {
    const ctx = kc.getContextObject(kc.getCurrentContext());
    return ctx?.namespace || "default";
  }
}

class ControllerManager implements Manager {
  readonly client: Client;
  readonly apiReader: Client;
  readonly cache: Cache;
  readonly log: Logger;
  readonly metrics: RuntimeMetrics;
  readonly kubeconfig: KubeConfig;
  readonly elected: Promise<void>;
  readonly ports: { metrics?: number; healthProbe?: number; webhook?: number } = {};
  private webhooks?: WebhookServer;
  private electedResolve!: () => void;
  private readonly rest: RestClient;
  private readonly controllers: Controller[] = [];
  private readonly runnables: Runnable[] = [];
  private readonly names = new Set<string>();
  private readonly healthChecks = new Map<string, Checker>();
  private readonly readyChecks = new Map<string, Checker>();
  private readonly recorders = new Map<string, Recorder>();
  private started = false;
  private synced = false;

  constructor(private readonly opts: ManagerOptions) {
    this.kubeconfig = loadKubeConfig(opts.kubeconfig);
    this.log = opts.logger ?? createLogger({ level: opts.logLevel, development: opts.development });
    this.metrics = new RuntimeMetrics({ registry: opts.metricsRegistry });
    this.rest = new RestClient(this.kubeconfig, {
      metrics: this.metrics.rest(),
      userAgent: "opgen-manager",
    });
    this.cache = new Cache(
      this.rest,
      { ...opts.cache, namespaces: opts.namespaces ?? opts.cache?.namespaces },
      this.log.withName("cache"),
    );
    const mapper = new RestMapper(this.rest);
    this.client = new CachedClient(this.rest, mapper, this.cache, { fieldOwner: opts.fieldOwner });
    this.apiReader = new CachedClient(this.rest, mapper, undefined, {
      fieldOwner: opts.fieldOwner,
    });
    this.elected = new Promise((resolve) => {
      this.electedResolve = resolve;
    });
    // Not ready until the informers have delivered their first lists.
    this.readyChecks.set("informer-sync", () => {
      if (!this.synced) throw new Error("caches not synced");
    });
    if (opts.leaderElection && !opts.leaderElectionId) {
      throw new Error("leaderElectionId is required when leaderElection is enabled");
    }
  }

  controller<T extends KubeObject>(kind: Kind<T>): Builder<T> {
    return new Builder(
      {
        cache: this.cache,
        controllerDeps: () => ({
          log: this.log,
          metrics: (name, max, queue) => this.metrics.forController(name, max, () => queue.stats()),
        }),
        defaultControllerOptions: () => this.opts.controller ?? {},
        register: (c) => {
          if (this.started) throw new Error("controllers must be added before the manager starts");
          if (this.names.has(c.name)) {
            throw new Error(
              `controller with name ${c.name} already exists; use named() to pick another`,
            );
          }
          this.names.add(c.name);
          this.controllers.push(c);
        },
      },
      kind,
    );
  }

  indexField<T extends KubeObject>(kind: Kind<T>, field: string, fn: IndexFunc<T>): void {
    this.cache.indexField(kind, field, fn);
  }

  addHealthzCheck(name: string, check: Checker): void {
    this.healthChecks.set(name, check);
  }

  addReadyzCheck(name: string, check: Checker): void {
    this.readyChecks.set(name, check);
  }

  getEventRecorder(name: string): EventRecorder {
    let r = this.recorders.get(name);
    if (!r) {
      r = new Recorder(this.rest, name, this.log.withName("events"));
      this.recorders.set(name, r);
    }
    return r;
  }

  get webhookServer(): WebhookServer {
    this.webhooks ??= new WebhookServer(
      { enableHttp2: this.opts.enableHttp2, ...this.opts.webhookServer },
      {
        log: this.log.withName("webhook"),
        registry: this.metrics.registry,
      },
    );
    return this.webhooks;
  }

  add(runnable: Runnable): void {
    if (this.started) throw new Error("runnables must be added before the manager starts");
    this.runnables.push(runnable);
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error("manager already started");
    this.started = true;
    const log = this.log;
    const stop = new AbortController(); // the signal, a lost lease or a fatal error
    const onAbort = () => stop.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) stop.abort();
    let fatal: Error | undefined;
    const fail = (err: Error) => {
      fatal ??= err;
      stop.abort();
    };
    const hardStop = new AbortController(); // aborts reconcile signals after the grace period
    const cacheStop = new AbortController(); // caches outlive controllers during the drain
    const leaseStop = new AbortController();
    const closers: Array<() => Promise<void>> = [];
    const runs: Promise<void>[] = [];
    let hold: Promise<"stopped" | "lost"> | undefined;
    // A lost lease means another replica may already be leading: in-flight reconciles must not
    // go on writing, so the drain is skipped (controller-runtime sets its graceful-shutdown
    // timeout to 0 in OnStoppedLeading for the same reason).
    let leaseLost = false;

    // A webhook registered later would never be served: refuse it instead.
    this.webhookServer.closeRegistration("webhooks must be registered before the manager starts");
    try {
      await this.startServers(closers);
      this.cache.start(cacheStop.signal);
      const startController = (c: Controller) =>
        runs.push(c.start(stop.signal, hardStop.signal).catch((err) => fail(err as Error)));
      const startRunnable = (r: Runnable) =>
        runs.push(r.start(stop.signal).catch((err) => fail(err as Error)));
      try {
        await this.cache.waitForSync(
          this.opts.cacheSyncTimeoutMs ?? managerDefaults.cacheSyncTimeoutMs,
          stop.signal,
        );
        this.synced = true;
      } catch (err) {
        if (!stop.signal.aborted) throw err;
      }
      if (!stop.signal.aborted) {
        for (const c of this.controllers)
          if (!c.needLeaderElection || !this.opts.leaderElection) startController(c);
        for (const r of this.runnables)
          if (r.needLeaderElection === false || !this.opts.leaderElection) startRunnable(r);
      }
      if (this.opts.leaderElection && !stop.signal.aborted) {
        const name = this.opts.leaderElectionId as string;
        const elector = new LeaderElector(this.rest, {
          name,
          namespace: this.opts.leaderElectionNamespace ?? defaultLeaseNamespace(this.kubeconfig),
          identity: `${os.hostname()}_${randomUUID()}`,
          leaseDurationMs: this.opts.leaseDurationMs ?? managerDefaults.leaseDurationMs,
          renewDeadlineMs: this.opts.renewDeadlineMs ?? managerDefaults.renewDeadlineMs,
          retryPeriodMs: this.opts.retryPeriodMs ?? managerDefaults.retryPeriodMs,
          releaseOnCancel: this.opts.leaderElectionReleaseOnCancel ?? true,
          log: log.withName("leaderelection"),
          onStatus: (leader) => this.metrics.setLeader(name, leader),
        });
        this.metrics.setLeader(name, false);
        if (await elector.acquire(stop.signal)) {
          this.electedResolve();
          hold = elector.hold(leaseStop.signal);
          hold.then((r) => {
            if (r === "lost") {
              leaseLost = true;
              fail(new Error(`leader election lost: ${name}`));
            }
          });
          for (const c of this.controllers) if (c.needLeaderElection) startController(c);
          for (const r of this.runnables) if (r.needLeaderElection !== false) startRunnable(r);
        }
      } else if (!this.opts.leaderElection) {
        this.electedResolve();
      }
      if (!stop.signal.aborted) {
        await new Promise<void>((resolve) =>
          stop.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
      }
    } catch (err) {
      fatal ??= err as Error;
      stop.abort();
    } finally {
      signal.removeEventListener("abort", onAbort);
      log.info("Stopping and waiting for non leader election runnables and controllers");
      const grace = leaseLost
        ? 0
        : (this.opts.gracefulShutdownTimeoutMs ?? managerDefaults.gracefulShutdownTimeoutMs);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        Promise.all(runs).then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), grace);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut && leaseLost) {
        log.info("Leader election lost: in-flight reconciles are cancelled, not drained");
        hardStop.abort(new Error("leader election lost"));
      } else if (timedOut) {
        log.error("failed waiting for all runnables to end within grace period", undefined, {
          gracePeriodMs: grace,
        });
        hardStop.abort(new Error("graceful shutdown timeout"));
      }
      await Promise.race([
        Promise.all([...this.recorders.values()].map((r) => r.flush())),
        new Promise((r) => setTimeout(r, 2_000).unref()),
      ]);
      leaseStop.abort();
      if (hold) await hold;
      cacheStop.abort();
      await this.cache.stopped();
      for (const close of closers.reverse()) await close();
      this.rest.close();
      log.info("Manager stopped");
    }
    if (fatal) throw fatal;
  }

  private async startServers(closers: Array<() => Promise<void>>): Promise<void> {
    if (this.webhooks?.hasWebhooks && !this.readyChecks.has("webhook")) {
      this.readyChecks.set("webhook", this.webhooks.startedChecker());
    }
    const metricsBind = parseBindAddress(
      this.opts.metricsBindAddress ?? managerDefaults.metricsBindAddress,
    );
    if (metricsBind) {
      const secure = this.opts.metricsSecure ?? false;
      const s = await startMetricsServer({
        bind: metricsBind,
        registry: this.metrics.registry,
        log: this.log.withName("metrics"),
        secure,
        certDir: this.opts.metricsCertPath,
        certName: this.opts.metricsCertName,
        keyName: this.opts.metricsCertKey,
        enableHttp2: this.opts.enableHttp2,
        // Kubebuilder's main.go protects the endpoint exactly when it is served securely.
        filter: secure
          ? withAuthenticationAndAuthorization(this.rest, this.opts.metricsAuth)
          : undefined,
      });
      this.ports.metrics = s.port;
      closers.push(s.close);
      this.log.info("Serving metrics server", {
        bindAddress: this.opts.metricsBindAddress,
        port: s.port,
        secure,
      });
    }
    const probeBind = parseBindAddress(
      this.opts.healthProbeBindAddress ?? managerDefaults.healthProbeBindAddress,
    );
    if (probeBind) {
      if (this.healthChecks.size === 0) this.healthChecks.set("ping", ping);
      const s = await serve(probeBind, {
        "/healthz": checksHandler(this.healthChecks, "/healthz"),
        "/readyz": checksHandler(this.readyChecks, "/readyz"),
      });
      this.ports.healthProbe = s.port;
      closers.push(s.close);
      this.log.info("Starting health probe server", {
        bindAddress: this.opts.healthProbeBindAddress,
        port: s.port,
      });
    }
    // After the probes and metrics, before the caches: conversion must answer for a cache of a
    // multi-version kind to fill (controller-runtime's start order).
    const webhooks = this.webhooks;
    if (webhooks?.hasWebhooks) {
      await webhooks.start();
      closers.push(() => webhooks.close());
      this.ports.webhook = webhooks.port;
    }
  }
}

/** Creates a manager; nothing talks to the cluster until `start`. */
export function createManager(opts: ManagerOptions = {}): Manager {
  return new ControllerManager(opts);
}
