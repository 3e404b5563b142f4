/**
 * `/metrics`: the API server's request metrics in Prometheus text. Names, labels and the
 * reported verb and scope are kube-apiserver's (`apiserver_request_total`,
 * `apiserver_request_duration_seconds`, `apiserver_current_inflight_requests`); the duration
 * buckets are Prometheus' defaults, not kube's.
 *
 * Own code rather than prom-client: recording sits on every request's path, and prom-client's
 * per-call label hashing cost envtest 13 % of its create throughput in `npm run bench`; here a
 * request costs one string key and a few additions, and the text is rendered only when scraped.
 */
import type { RequestInfo } from "./filters/request-info.js";

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LABELS = [
  "component",
  "dry_run",
  "group",
  "resource",
  "scope",
  "subresource",
  "verb",
  "version",
];

interface Series {
  labels: string[];
  count: number;
  sum: number;
  buckets: number[];
  codes: Map<number, number>;
}

function reportedVerb(info: RequestInfo, contentType: string | undefined): string {
  if (!info.resource) return info.method.toUpperCase();
  switch (info.verb) {
    case "list":
      return "LIST";
    case "watch":
      return "WATCH";
    case "patch":
      return contentType?.startsWith("application/apply-patch") ? "APPLY" : "PATCH";
    default:
      return info.method.toUpperCase();
  }
}

function scopeOf(info: RequestInfo): string {
  const r = info.resource;
  if (!r) return "";
  if (r.name !== undefined || info.verb === "create") return "resource";
  if (r.namespace !== undefined) return "namespace";
  return "cluster";
}

const escapeLabel = (v: string) =>
  v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

function labelText(names: string[], values: string[]): string {
  return names.map((n, i) => `${n}="${escapeLabel(values[i]!)}"`).join(",");
}

export class ApiServerMetrics {
  readonly contentType = "text/plain; version=0.0.4; charset=utf-8";
  private readonly series = new Map<string, Series>();
  private readonly inflight = { readOnly: 0, mutating: 0 };

  /** Counts a request in flight; the returned function records its end with the status code. */
  begin(info: RequestInfo, contentType: string | undefined): (code: number) => void {
    const kind = info.method === "GET" || info.method === "HEAD" ? "readOnly" : "mutating";
    this.inflight[kind]++;
    const start = performance.now();
    return (code) => {
      this.inflight[kind]--;
      const r = info.resource;
      const dryRun = r && info.query.has("dryRun") ? info.query.getAll("dryRun").join(",") : "";
      const verb = reportedVerb(info, contentType);
      const scope = scopeOf(info);
      // One string key per series; the label list is built once, when the series is new.
      const key = r
        ? `${verb}\0${r.group}\0${r.version}\0${r.resource}\0${r.subresource ?? ""}\0${scope}\0${dryRun}`
        : verb;
      let s = this.series.get(key);
      if (!s) {
        const labels = [
          "apiserver",
          dryRun,
          r?.group ?? "",
          r?.resource ?? "",
          scope,
          r?.subresource ?? "",
          verb,
          r?.version ?? "",
        ];
        s = { labels, count: 0, sum: 0, buckets: BUCKETS.map(() => 0), codes: new Map() };
        this.series.set(key, s);
      }
      const seconds = (performance.now() - start) / 1000;
      s.count++;
      s.sum += seconds;
      for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) s.buckets[i]!++;
      s.codes.set(code, (s.codes.get(code) ?? 0) + 1);
    };
  }

  /** The Prometheus text exposition of everything recorded so far. */
  text(): string {
    const out: string[] = [];
    out.push(
      "# HELP apiserver_current_inflight_requests Maximal number of currently used inflight request limit of this apiserver per request kind in last second.",
      "# TYPE apiserver_current_inflight_requests gauge",
      `apiserver_current_inflight_requests{request_kind="mutating"} ${this.inflight.mutating}`,
      `apiserver_current_inflight_requests{request_kind="readOnly"} ${this.inflight.readOnly}`,
      "# HELP apiserver_request_duration_seconds Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
      "# TYPE apiserver_request_duration_seconds histogram",
    );
    const all = [...this.series.values()].sort((a, b) =>
      a.labels.join() < b.labels.join() ? -1 : 1,
    );
    for (const s of all) {
      const l = labelText(LABELS, s.labels);
      for (let i = 0; i < BUCKETS.length; i++)
        out.push(
          `apiserver_request_duration_seconds_bucket{${l},le="${BUCKETS[i]}"} ${s.buckets[i]}`,
        );
      out.push(`apiserver_request_duration_seconds_bucket{${l},le="+Inf"} ${s.count}`);
      out.push(`apiserver_request_duration_seconds_sum{${l}} ${s.sum}`);
      out.push(`apiserver_request_duration_seconds_count{${l}} ${s.count}`);
    }
    out.push(
      "# HELP apiserver_request_total Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
      "# TYPE apiserver_request_total counter",
    );
    for (const s of all) {
      for (const [code, n] of [...s.codes].sort((a, b) => a[0] - b[0])) {
        out.push(
          `apiserver_request_total{${labelText(["code", ...LABELS], [String(code), ...s.labels])}} ${n}`,
        );
      }
    }
    return `${out.join("\n")}\n`;
  }
}
