/**
 * What an update may not change, as kube's ValidateXUpdate functions refuse it: workload
 * selectors, StatefulSet spec beyond its mutable fields, Job templates, Pod specs beyond images,
 * tolerations added, activeDeadlineSeconds and scheduling gates removed, and the data of immutable
 * ConfigMaps and Secrets (PVCs: core/persistent-volume-claim-update.ts). Values a message shows as Go
 * prints them are rendered where they are small (selectors); whole pod templates and kube's
 * spec diffs are not reproduced.
 */
import { type FieldError, goValue } from "@opgen/apimachinery/status";
import { deepClone, deepEqual, isObject, type JsonObject, type KubeObject } from "../api/types.js";
import { objectAt } from "./strategy.js";

const goString = (s: unknown) => JSON.stringify(String(s ?? ""));

/** A metav1.LabelSelector as `%#v` prints it. */
export function goLabelSelector(sel: unknown): string {
  const s = objectAt(sel);
  const labels = objectAt(s.matchLabels);
  const ml = Object.keys(labels).length
    ? `map[string]string{${Object.keys(labels)
        .sort()
        .map((k) => `${goString(k)}:${goString(labels[k])}`)
        .join(", ")}}`
    : "map[string]string(nil)";
  const exprs = Array.isArray(s.matchExpressions) ? (s.matchExpressions as JsonObject[]) : [];
  const me = exprs.length
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map(
          (e) =>
            `v1.LabelSelectorRequirement{Key:${goString(e.key)}, Operator:${goString(e.operator)}, Values:${
              Array.isArray(e.values) && e.values.length
                ? `[]string{${(e.values as unknown[]).map(goString).join(", ")}}`
                : "[]string(nil)"
            }}`,
        )
        .join(", ")}}`
    : "[]v1.LabelSelectorRequirement(nil)";
  return `v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`;
}

export function immutableSelector(o: KubeObject, old: KubeObject): FieldError[] {
  const sel = objectAt(o.spec).selector;
  if (deepEqual(sel, objectAt(old.spec).selector)) return [];
  return [
    {
      type: "FieldValueInvalid",
      field: "spec.selector",
      value: goValue(goLabelSelector(sel)),
      detail: "field is immutable",
    },
  ];
}

const STS_MUTABLE = [
  "replicas",
  "ordinals",
  "template",
  "updateStrategy",
  "persistentVolumeClaimRetentionPolicy",
  "minReadySeconds",
];

/** A Forbidden on `spec` when the specs differ once `strip` removed what may change. */
function specForbidden(
  o: KubeObject,
  old: KubeObject,
  strip: (spec: unknown) => unknown,
  detail: string,
): FieldError[] {
  if (deepEqual(strip(o.spec), strip(old.spec))) return [];
  return [{ type: "FieldValueForbidden", field: "spec", detail }];
}

export function statefulSetUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const strip = (spec: unknown) => {
    const s = { ...objectAt(spec) };
    for (const k of STS_MUTABLE) delete s[k];
    return s;
  };
  return specForbidden(
    o,
    old,
    strip,
    "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  );
}

export function jobUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs = immutableSelector(o, old);
  const spec = objectAt(o.spec);
  const oldSpec = objectAt(old.spec);
  // A suspended job that never started may change its pod template's scheduling directives;
  // kube allows more of the template there than this server checks.
  const neverStarted = oldSpec.suspend === true && objectAt(old.status).startTime === undefined;
  if (!neverStarted && !deepEqual(spec.template, oldSpec.template))
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.template",
      value: goValue("core.PodTemplateSpec{...}"),
      detail: "field is immutable",
    });
  if (oldSpec.completionMode !== undefined && spec.completionMode !== oldSpec.completionMode)
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.completionMode",
      value: spec.completionMode ?? "",
      detail: "field is immutable",
    });
  return errs;
}

const POD_UPDATE_FORBIDDEN =
  "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

export function podUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(o.spec);
  const oldSpec = objectAt(old.spec);
  const errs: FieldError[] = [];
  const oldDeadline = oldSpec.activeDeadlineSeconds;
  const deadline = spec.activeDeadlineSeconds;
  if (typeof oldDeadline === "number" && (typeof deadline !== "number" || deadline > oldDeadline))
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.activeDeadlineSeconds",
      value: deadline ?? goValue("nil"),
      detail: "must be less than or equal to previous value",
    });
  const oldTolerations = (oldSpec.tolerations ?? []) as unknown[];
  const tolerations = (spec.tolerations ?? []) as unknown[];
  const kept = oldTolerations.every((t) => tolerations.some((n) => deepEqual(n, t)));
  const oldGates = (oldSpec.schedulingGates ?? []) as unknown[];
  const gates = (spec.schedulingGates ?? []) as unknown[];
  if (gates.some((g) => !oldGates.some((x) => deepEqual(x, g))))
    errs.push({
      type: "FieldValueForbidden",
      field: "spec.schedulingGates",
      detail:
        "only deletion is allowed, but found new scheduling gate '" +
        String(objectAt(gates.find((g) => !oldGates.some((x) => deepEqual(x, g)))).name) +
        "'",
    });
  // Everything else must stay: compare with the mutable fields taken from the new spec.
  const normalized = deepClone(oldSpec);
  const withImages = (list: unknown, from: unknown) =>
    Array.isArray(list) && Array.isArray(from) && list.length === from.length
      ? list.map((c, i) => ({ ...(c as JsonObject), image: objectAt(from[i]).image }))
      : list;
  normalized.containers = withImages(oldSpec.containers, spec.containers);
  if (oldSpec.initContainers !== undefined)
    normalized.initContainers = withImages(oldSpec.initContainers, spec.initContainers);
  for (const k of ["activeDeadlineSeconds", "schedulingGates"]) {
    if (spec[k] === undefined) delete normalized[k];
    else normalized[k] = spec[k];
  }
  if (kept) {
    if (spec.tolerations === undefined) delete normalized.tolerations;
    else normalized.tolerations = spec.tolerations;
  }
  const grace = oldSpec.terminationGracePeriodSeconds;
  if (typeof grace === "number" && grace < 0 && spec.terminationGracePeriodSeconds === 1)
    normalized.terminationGracePeriodSeconds = 1;
  // The scheduler's binding sets nodeName once; an update may repeat it.
  if (oldSpec.nodeName === undefined && spec.nodeName !== undefined)
    normalized.nodeName = spec.nodeName;
  if (!deepEqual(normalized, spec))
    errs.push({ type: "FieldValueForbidden", field: "spec", detail: POD_UPDATE_FORBIDDEN });
  return errs;
}

/** ConfigMaps and Secrets marked `immutable: true`. */
export function immutableData(fields: string[]) {
  return (o: KubeObject, old: KubeObject): FieldError[] => {
    if (old.immutable !== true) return [];
    const errs: FieldError[] = [];
    if (o.immutable !== true)
      errs.push({
        type: "FieldValueForbidden",
        field: "immutable",
        detail: "field is immutable when `immutable` is set",
      });
    for (const f of fields) {
      const a = isObject(o[f]) ? o[f] : {};
      const b = isObject(old[f]) ? old[f] : {};
      if (!deepEqual(a, b))
        errs.push({
          type: "FieldValueForbidden",
          field: f,
          detail: "field is immutable when `immutable` is set",
        });
    }
    return errs;
  };
}
