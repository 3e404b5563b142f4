/**
 * The cell formatting kube's printers share (`pkg/printers/internalversion`, `pkg/apis/core/helper`,
 * apimachinery's label and selector stringers), over the JSON form envtest stores.
 */
import { formatLabelSelector, toSelectorString } from "@opgen/apimachinery/selectors";
import { type JsonObject, objectAt } from "../../api/types.js";

/** The items of a list field (a missing one is empty). */
export function listAt(v: unknown): JsonObject[] {
  return Array.isArray(v) ? (v as JsonObject[]) : [];
}

/** A string field as Go reads it (the zero value when missing). */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** An integer field as Go reads it (the zero value when missing). */
export function int(v: unknown): number {
  return typeof v === "number" ? v : 0;
}

/** `printBoolPtr`: True, False, or `<unset>` for a nil pointer. */
export function boolPtr(v: unknown): string {
  if (typeof v !== "boolean") return "<unset>";
  return v ? "True" : "False";
}

/** A quantity's string form; Go's zero Quantity prints as `0`. */
export function quantity(v: unknown): string {
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number") return String(v);
  return "0";
}

/** `metav1.FormatLabelSelector`: `<none>` for an empty selector, `<error>` for an invalid one. */
export function labelSelector(sel: unknown): string {
  let s: string;
  try {
    s = formatLabelSelector(sel);
  } catch {
    return "<error>";
  }
  return s === "" ? "<none>" : s;
}

/** `labels.FormatLabels`: `k=v` pairs sorted by key, `<none>` for none. */
export function labelSet(labels: unknown): string {
  const set = objectAt(labels) as Record<string, string>;
  return Object.keys(set).length === 0 ? "<none>" : toSelectorString(set);
}

/** `helper.GetAccessModesAsString`: the short forms in kube's fixed order, duplicates dropped. */
export function accessModes(modes: unknown): string {
  const have = new Set(Array.isArray(modes) ? modes : []);
  const short: [string, string][] = [
    ["ReadWriteOnce", "RWO"],
    ["ReadOnlyMany", "ROX"],
    ["ReadWriteMany", "RWX"],
    ["ReadWriteOncePod", "RWOP"],
  ];
  return short
    .filter(([mode]) => have.has(mode))
    .map(([, s]) => s)
    .join(",");
}

/** The container names and images of a pod template, comma-joined (`layoutContainerCells`). */
export function containerCells(template: unknown): [string, string] {
  const containers = listAt(objectAt(objectAt(template).spec).containers);
  return [
    containers.map((c) => str(c.name)).join(","),
    containers.map((c) => str(c.image)).join(","),
  ];
}

/**
 * `listWithMoreString`: the first `max` items joined with commas and `+ N more...` for the rest,
 * `<unset>` for none.
 */
export function firstWithMore(items: string[], max = 3): string {
  if (items.length === 0) return "<unset>";
  const shown = items.slice(0, max).join(",");
  return items.length > max ? `${shown} + ${items.length - max} more...` : shown;
}

/**
 * `metav1.LabelSelector.String()`, the generated protobuf stringer kube prints a binding's param
 * selector with: `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]...,}`.
 */
export function goLabelSelector(sel: unknown): string {
  const s = objectAt(sel);
  const labels = objectAt(s.matchLabels) as Record<string, string>;
  const keys = Object.keys(labels).sort();
  const map = `map[string]string{${keys.map((k) => `${k}: ${labels[k]},`).join("")}}`;
  const exprs = listAt(s.matchExpressions)
    .map((e) => {
      const values = Array.isArray(e.values) ? (e.values as string[]).join(" ") : "";
      return `LabelSelectorRequirement{Key:${str(e.key)},Operator:${str(e.operator)},Values:[${values}],},`;
    })
    .join("");
  return `&LabelSelector{MatchLabels:${map},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/**
 * `loadBalancerStatusStringer` as the server renders it (always wide, so never clipped): each
 * ingress point's IP, or its hostname, deduplicated and sorted, comma-joined.
 */
export function loadBalancerIngress(status: unknown): string {
  const points = listAt(objectAt(status).ingress)
    .map((i) => str(i.ip) || str(i.hostname))
    .filter((p) => p !== "");
  return [...new Set(points)].sort().join(",");
}

/** kube's formatHosts: the first three rule hosts, `+ N more...` counting every further rule. */
export function ingressHosts(rules: unknown): string {
  const all = listAt(rules);
  const shown: string[] = [];
  let more = false;
  for (const rule of all) {
    if (shown.length === 3) more = true;
    if (!more && str(rule.host) !== "") shown.push(str(rule.host));
  }
  if (shown.length === 0) return "*";
  return more ? `${shown.join(",")} + ${all.length - 3} more...` : shown.join(",");
}
