/**
 * Prometheus metrics with controller-runtime's names, types and labels, so dashboards and alerts
 * written for Go operators work unchanged (pkg/internal/controller/metrics, pkg/internal/metrics
 * workqueue, pkg/metrics client-go adapter and leader election). One registry per manager, so two
 * managers in one process (tests) do not collide.
 */
import client from "prom-client";
import type { RestMetricsSink } from "../internal/rest/http.js";
import type { QueueMetricsSink, QueueStats } from "../workqueue/queue.js";

/** Reconcile results as labelled in `controller_runtime_reconcile_total`. */
export type ReconcileResultLabel = "success" | "error" | "requeue" | "requeue_after";

/** client-go's workqueue histogram buckets: ExponentialBuckets(10e-9, 10, 12). */
const queueBuckets = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);
/** controller-runtime's reconcile-time buckets. */
const reconcileBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1,
  1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
const restBuckets = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/** Per-controller hooks the controller reports through. */
export interface ControllerMetrics {
  reconcileTotal(result: ReconcileResultLabel): void;
  reconcileError(): void;
  terminalError(): void;
  panic(): void;
  timeout(): void;
  /** The cache did not show a reconcile's write within the controller's expectation timeout. */
  expectationTimeout(): void;
  reconcileTime(seconds: number): void;
  activeWorkers(delta: number): void;
  queue: QueueMetricsSink;
}

export class RuntimeMetrics {
  readonly registry: client.Registry;
  private readonly reconcileTotal: client.Counter<"controller" | "result">;
  private readonly reconcileErrors: client.Counter<"controller">;
  private readonly terminalErrors: client.Counter<"controller">;
  private readonly panics: client.Counter<"controller">;
  private readonly timeouts: client.Counter<"controller">;
  private readonly expectationTimeouts: client.Counter<"controller">;
  private readonly reconcileTime: client.Histogram<"controller">;
  private readonly maxConcurrent: client.Gauge<"controller">;
  private readonly activeWorkers: client.Gauge<"controller">;
  private readonly queueAdds: client.Counter<"name" | "controller">;
  private readonly queueRetries: client.Counter<"name" | "controller">;
  private readonly queueDuration: client.Histogram<"name" | "controller">;
  private readonly workDuration: client.Histogram<"name" | "controller">;
  private readonly queues = new Map<string, () => QueueStats>();
  private readonly leaderStatus: client.Gauge<"name">;
  private readonly restRequests: client.Counter<"code" | "method" | "host">;
  private readonly restLatency: client.Histogram<"verb" | "host">;

  constructor(opts: { registry?: client.Registry; processMetrics?: boolean } = {}) {
    this.registry = opts.registry ?? new client.Registry();
    const registers = [this.registry];
    if (opts.processMetrics !== false) client.collectDefaultMetrics({ register: this.registry });
    this.reconcileTotal = new client.Counter({
      name: "controller_runtime_reconcile_total",
      help: "Total number of reconciliations per controller",
      labelNames: ["controller", "result"],
      registers,
    });
    this.reconcileErrors = new client.Counter({
      name: "controller_runtime_reconcile_errors_total",
      help: "Total number of reconciliation errors per controller",
      labelNames: ["controller"],
      registers,
    });
    this.terminalErrors = new client.Counter({
      name: "controller_runtime_terminal_reconcile_errors_total",
      help: "Total number of terminal reconciliation errors per controller",
      labelNames: ["controller"],
      registers,
    });
    this.panics = new client.Counter({
      name: "controller_runtime_reconcile_panics_total",
      help: "Total number of reconciliation panics per controller",
      labelNames: ["controller"],
      registers,
    });
    this.timeouts = new client.Counter({
      name: "controller_runtime_reconcile_timeouts_total",
      help: "Total number of reconciliation timeouts per controller",
      labelNames: ["controller"],
      registers,
    });
    // Not a controller-runtime metric: it has no read-your-writes wait to time out.
    this.expectationTimeouts = new client.Counter({
      name: "controller_runtime_expectation_timeouts_total",
      help: "Total number of writes made by reconciles that the cache did not show within the expectation timeout, per controller",
      labelNames: ["controller"],
      registers,
    });
    this.reconcileTime = new client.Histogram({
      name: "controller_runtime_reconcile_time_seconds",
      help: "Length of time per reconciliation per controller",
      labelNames: ["controller"],
      buckets: reconcileBuckets,
      registers,
    });
    this.maxConcurrent = new client.Gauge({
      name: "controller_runtime_max_concurrent_reconciles",
      help: "Maximum number of concurrent reconciles per controller",
      labelNames: ["controller"],
      registers,
    });
    this.activeWorkers = new client.Gauge({
      name: "controller_runtime_active_workers",
      help: "Number of currently used workers per controller",
      labelNames: ["controller"],
      registers,
    });
    const queues = this.queues;
    const gaugeFromQueues = (name: string, help: string, pick: (s: QueueStats) => number) =>
      new client.Gauge({
        name,
        help,
        labelNames:
          name === "workqueue_depth" ? ["name", "controller", "priority"] : ["name", "controller"],
        registers,
        collect() {
          this.reset();
          for (const [ctrl, stats] of queues) {
            const labels: Record<string, string> = { name: ctrl, controller: ctrl };
            if (name === "workqueue_depth") labels.priority = "";
            this.set(labels, pick(stats()));
          }
        },
      });
    gaugeFromQueues("workqueue_depth", "Current depth of workqueue", (s) => s.depth);
    gaugeFromQueues(
      "workqueue_unfinished_work_seconds",
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads.",
      (s) => s.unfinishedWorkSeconds,
    );
    gaugeFromQueues(
      "workqueue_longest_running_processor_seconds",
      "How many seconds has the longest running processor for workqueue been running.",
      (s) => s.longestRunningProcessorSeconds,
    );
    this.queueAdds = new client.Counter({
      name: "workqueue_adds_total",
      help: "Total number of adds handled by workqueue",
      labelNames: ["name", "controller"],
      registers,
    });
    this.queueRetries = new client.Counter({
      name: "workqueue_retries_total",
      help: "Total number of retries handled by workqueue",
      labelNames: ["name", "controller"],
      registers,
    });
    this.queueDuration = new client.Histogram({
      name: "workqueue_queue_duration_seconds",
      help: "How long in seconds an item stays in workqueue before being requested",
      labelNames: ["name", "controller"],
      buckets: queueBuckets,
      registers,
    });
    this.workDuration = new client.Histogram({
      name: "workqueue_work_duration_seconds",
      help: "How long in seconds processing an item from workqueue takes.",
      labelNames: ["name", "controller"],
      buckets: queueBuckets,
      registers,
    });
    this.leaderStatus = new client.Gauge({
      name: "leader_election_master_status",
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ["name"],
      registers,
    });
    this.restRequests = new client.Counter({
      name: "rest_client_requests_total",
      help: "Number of HTTP requests, partitioned by status code, method, and host.",
      labelNames: ["code", "method", "host"],
      registers,
    });
    this.restLatency = new client.Histogram({
      name: "rest_client_request_duration_seconds",
      help: "Request latency in seconds. Broken down by verb, and host.",
      labelNames: ["verb", "host"],
      buckets: restBuckets,
      registers,
    });
  }

  /** Registers a controller: pre-initialises its series (as controller-runtime does) and returns its hooks. */
  forController(name: string, maxConcurrent: number, stats: () => QueueStats): ControllerMetrics {
    const c = { controller: name };
    const q = { name, controller: name };
    for (const result of ["success", "error", "requeue", "requeue_after"] as const) {
      this.reconcileTotal.inc({ ...c, result }, 0);
    }
    this.reconcileErrors.inc(c, 0);
    this.terminalErrors.inc(c, 0);
    this.panics.inc(c, 0);
    this.timeouts.inc(c, 0);
    this.expectationTimeouts.inc(c, 0);
    this.maxConcurrent.set(c, maxConcurrent);
    this.activeWorkers.set(c, 0);
    this.queueAdds.inc(q, 0);
    this.queueRetries.inc(q, 0);
    this.queues.set(name, stats);
    return {
      reconcileTotal: (result) => this.reconcileTotal.inc({ ...c, result }),
      reconcileError: () => this.reconcileErrors.inc(c),
      terminalError: () => this.terminalErrors.inc(c),
      panic: () => this.panics.inc(c),
      timeout: () => this.timeouts.inc(c),
      expectationTimeout: () => this.expectationTimeouts.inc(c),
      reconcileTime: (s) => this.reconcileTime.observe(c, s),
      activeWorkers: (d) => this.activeWorkers.inc(c, d),
      queue: {
        onAdd: () => this.queueAdds.inc(q),
        onRetry: () => this.queueRetries.inc(q),
        onGet: (s) => this.queueDuration.observe(q, s),
        onDone: (s) => this.workDuration.observe(q, s),
      },
    };
  }

  /** Sets `leader_election_master_status{name}`. */
  setLeader(name: string, leader: boolean): void {
    this.leaderStatus.set({ name }, leader ? 1 : 0);
  }

  /** The sink the REST client reports requests to. */
  rest(): RestMetricsSink {
    return {
      onRequest: (method, code, host, seconds) => {
        this.restRequests.inc({ code, method, host });
        this.restLatency.observe({ verb: method, host }, seconds);
      },
    };
  }
}
