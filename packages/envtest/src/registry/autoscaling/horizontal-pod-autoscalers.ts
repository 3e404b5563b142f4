/**
 * HorizontalPodAutoscalers (`pkg/registry/autoscaling/horizontalpodautoscaler`, autoscaling/v2):
 * `minReplicas` defaults to 1 and the metrics to 80 % CPU utilization, and kubectl's columns
 * (the Targets cell as kube formats resource metrics: `cpu: 40%/80%`, `<unknown>` before the
 * controller reports).
 */
import type { JsonObject } from "../../api/types.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { convertHorizontalPodAutoscaler } from "./hpa-conversion.js";

const SPEC = "api.autoscaling.v2.HorizontalPodAutoscalerSpec";
const STATUS = "api.autoscaling.v2.HorizontalPodAutoscalerStatus";

function target(spec: JsonObject, current: JsonObject | undefined): string {
  const t = objectAt(spec.target);
  const c = objectAt(current?.current);
  if (t.type === "Utilization")
    return `${c.averageUtilization !== undefined ? `${c.averageUtilization}%` : "<unknown>"}/${t.averageUtilization}%`;
  if (t.type === "AverageValue") return `${c.averageValue ?? "<unknown>"}/${t.averageValue}`;
  return `${c.value ?? "<unknown>"}/${t.value ?? "<unknown>"}`;
}

function targets(o: JsonObject): string {
  const metrics = (objectAt(o.spec).metrics ?? []) as JsonObject[];
  const current = (objectAt(o.status).currentMetrics ?? []) as JsonObject[];
  if (metrics.length === 0) return "<none>";
  const cells = metrics.map((m, i) => {
    const cur = current[i];
    if (m.type === "Resource" || m.type === "ContainerResource") {
      const spec = objectAt(m.type === "Resource" ? m.resource : m.containerResource);
      const curSpec = cur
        ? objectAt(cur.type === "Resource" ? cur.resource : cur.containerResource)
        : undefined;
      return `${spec.name}: ${target(spec, curSpec)}`;
    }
    const key =
      String(m.type ?? "")
        .charAt(0)
        .toLowerCase() + String(m.type ?? "").slice(1);
    const spec = objectAt(m[key]);
    return target(spec, cur ? objectAt(cur[key]) : undefined);
  });
  return cells.length > 4
    ? `${cells.slice(0, 4).join(", ")} + ${cells.length - 4} more...`
    : cells.join(", ");
}

export const horizontalPodAutoscalers: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    const spec = ensureObject(o, "spec");
    if (spec.minReplicas === undefined) spec.minReplicas = 1;
    if (spec.metrics === undefined)
      spec.metrics = [
        {
          type: "Resource",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
        },
      ];
  },
  printer: () =>
    namedPrinter(
      // kube 1.32 cites autoscaling/v2beta1's docs, which 1.32 no longer serves: v2's stand in.
      // Every column but Name and Age is typed "string" there, counts included.
      [
        { name: "Reference", type: "string", description: doc(SPEC, "scaleTargetRef") },
        { name: "Targets", type: "string", description: doc(SPEC, "metrics") },
        { name: "MinPods", type: "string", description: doc(SPEC, "minReplicas") },
        { name: "MaxPods", type: "string", description: doc(SPEC, "maxReplicas") },
        { name: "Replicas", type: "string", description: doc(STATUS, "currentReplicas") },
      ],
      (served) => {
        // Cells read the stored (v2) form, as kube's printer reads the internal one.
        const o = convertHorizontalPodAutoscaler(served, "v2");
        const spec = objectAt(o.spec);
        const ref = objectAt(spec.scaleTargetRef);
        return [
          `${ref.kind ?? ""}/${ref.name ?? ""}`,
          targets(o),
          // A string, as kube's printer formats it (fmt.Sprintf("%d")); the counts stay numbers.
          spec.minReplicas === undefined ? "<unset>" : String(spec.minReplicas),
          spec.maxReplicas ?? 0,
          objectAt(o.status).currentReplicas ?? 0,
        ];
      },
    ),
};
