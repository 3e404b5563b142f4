/**
 * The ResourceQuota admission plugin (`plugin/pkg/admission/resourcequota`, CheckRequest) as
 * kube-apiserver 1.32 runs it, last among the validating steps: a create (or an update that can
 * change usage: Services, PersistentVolumeClaims) in a namespace with ResourceQuotas is refused
 * with 403 when a quota covering the object would go above a hard limit, or when the pod leaves
 * out a cpu or memory value a quota requires. Usage is read from the store at that moment, and
 * nothing awaits between this check and the write, so concurrent requests cannot both take the
 * last unit. Dry-run requests are checked the same way; status is the controller's
 * (controllers/resource-quota.ts).
 */
import { errors } from "@opgen/apimachinery/status";
import type { KubeObject } from "../../api/types.js";
import { evaluatorFor, isIgnored } from "../../rest/quota/evaluators.js";
import {
  add,
  exceeding,
  mask,
  negatives,
  prettyNames,
  prettyPrint,
  type ResourceList,
  removeZeros,
  subtractNonNegative,
} from "../../rest/quota/resource-list.js";
import {
  calculateUsage,
  hardOf,
  QUOTAS,
  quotaMatches,
  type Served,
} from "../../rest/quota/usage.js";
import type { RequestScope } from "../../rest/scope.js";
import type { Store } from "../../store/store.js";
import type { AdmissionPlugin } from "../chain.js";

interface Covering {
  quota: KubeObject;
  name: string;
  hard: ResourceList;
  used: ResourceList;
  delta: ResourceList;
}

export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = "ResourceQuota";
  constructor(
    private readonly store: Store,
    private readonly served: Served,
  ) {}

  validate(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    // Subresources, cluster-scoped objects and namespaces themselves are not quota's.
    if (scope.subresource !== undefined || !scope.info.namespaced) return;
    const namespace = obj.metadata?.namespace ?? scope.namespace;
    const { group, resource } = scope.info;
    if (!namespace || isIgnored(group, resource)) return;
    const quotas = this.store.list(QUOTAS, namespace);
    if (quotas.length === 0) return;
    const evaluator = evaluatorFor(group, resource);
    if (!evaluator.handles(old ? "UPDATE" : "CREATE")) return;
    const name = obj.metadata?.name || obj.metadata?.generateName || "Unknown";
    const refuse = (why: string) => errors.forbidden({ group, resource }, name, why);
    const now = Date.now();

    const covering: Covering[] = [];
    for (const quota of quotas) {
      if (!quotaMatches(quota, evaluator, obj)) continue;
      const quotaName = quota.metadata?.name ?? "";
      const hard = hardOf(quota);
      const restricted = evaluator.matchingResources([...hard.keys()]);
      const constraint = evaluator.constraints(restricted, obj);
      if (constraint) throw refuse(`failed quota: ${quotaName}: ${constraint}`);
      const used = calculateUsage(this.store, quota, this.served, now);
      if (restricted.some((n) => !used.has(n)))
        throw refuse(
          `status unknown for quota: ${quotaName}, resources: ${prettyNames(restricted)}`,
        );
      covering.push({ quota, name: quotaName, hard, used, delta: new Map() });
    }
    if (covering.length === 0) return;

    const input = evaluator.usage(obj, now);
    const negative = negatives(input);
    if (negative.length)
      throw refuse(`quota usage is negative for resource(s): ${prettyNames(negative)}`);
    for (const c of covering) c.delta = input;
    // An update is charged what it adds, to the quotas that already covered the old object.
    if (old?.metadata?.resourceVersion) {
      const delta = subtractNonNegative(input, evaluator.usage(old, now));
      for (const c of covering) if (quotaMatches(c.quota, evaluator, old)) c.delta = delta;
    }
    for (const c of covering) check(c, refuse);
  }
}

function check(c: Covering, refuse: (why: string) => Error): void {
  const requested = mask(removeZeros(c.delta), c.hard.keys());
  if (requested.size === 0) return;
  const exceeded = exceeding(mask(add(c.used, requested), requested.keys()), c.hard);
  if (exceeded.length === 0) return;
  throw refuse(
    `exceeded quota: ${c.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(
      mask(c.used, exceeded),
    )}, limited: ${prettyPrint(mask(c.hard, exceeded))}`,
  );
}
