/**
 * controller-runtime's webhook metrics (pkg/webhook/internal/metrics, admission/metrics), same
 * names, labels and help texts, in the manager's registry: latency per path, requests per path and
 * HTTP code (200 and 500 pre-initialised), requests in flight per path, and admission verdicts per
 * path, allowed and code (the HTTP code of an admission call is 200 whatever the verdict).
 */
import client from "prom-client";

export class WebhookMetrics {
  private readonly latency: client.Histogram<"webhook">;
  private readonly total: client.Counter<"webhook" | "code">;
  private readonly inFlight: client.Gauge<"webhook">;
  private readonly responses: client.Counter<"webhook" | "allowed" | "admission_code">;

  constructor(registry: client.Registry) {
    const registers = [registry];
    // Another server on the same registry (two managers sharing one) reuses the series.
    const existing = <T>(name: string) => registry.getSingleMetric(name) as T | undefined;
    this.latency =
      existing("controller_runtime_webhook_latency_seconds") ??
      new client.Histogram({
        name: "controller_runtime_webhook_latency_seconds",
        help: "Histogram of the latency of processing admission requests",
        labelNames: ["webhook"],
        registers,
      });
    this.total =
      existing("controller_runtime_webhook_requests_total") ??
      new client.Counter({
        name: "controller_runtime_webhook_requests_total",
        help: "Total number of admission requests by HTTP status code.",
        labelNames: ["webhook", "code"],
        registers,
      });
    this.inFlight =
      existing("controller_runtime_webhook_requests_in_flight") ??
      new client.Gauge({
        name: "controller_runtime_webhook_requests_in_flight",
        help: "Current number of admission requests being served.",
        labelNames: ["webhook"],
        registers,
      });
    this.responses =
      existing("controller_runtime_webhook_admission_responses_total") ??
      new client.Counter({
        name: "controller_runtime_webhook_admission_responses_total",
        help: "Total number of admission responses by status code and allowed status.",
        labelNames: ["webhook", "allowed", "admission_code"],
        registers,
      });
  }

  /** Pre-initialises a path's series, as controller-runtime does on Register. */
  register(path: string, admission: boolean): void {
    this.total.inc({ webhook: path, code: "200" }, 0);
    this.total.inc({ webhook: path, code: "500" }, 0);
    this.inFlight.set({ webhook: path }, 0);
    if (admission) {
      for (const [allowed, code] of [
        ["true", "200"],
        ["false", "400"],
        ["false", "403"],
        ["false", "500"],
      ] as const) {
        this.responses.inc({ webhook: path, allowed, admission_code: code }, 0);
      }
    }
  }

  /** Marks a request started; the returned function records its end with the HTTP code. */
  begin(path: string): (httpCode: number) => void {
    this.inFlight.inc({ webhook: path });
    const end = this.latency.startTimer({ webhook: path });
    return (httpCode) => {
      end();
      this.inFlight.dec({ webhook: path });
      this.total.inc({ webhook: path, code: String(httpCode) });
    };
  }

  admissionResponse(path: string, allowed: boolean, code: number): void {
    this.responses.inc({ webhook: path, allowed: String(allowed), admission_code: String(code) });
  }
}
