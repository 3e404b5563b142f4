/**
 * `POST .../pods/<name>/eviction` (`kubectl drain`): deletes the pod unless that would break its
 * PodDisruptionBudget, as kube-apiserver's eviction REST does. Pods that are not running
 * (Pending, Succeeded, Failed) or already terminating are deleted without a budget check; a
 * pod under more than one budget is a 500; a budget not yet observed at its generation, or with
 * no disruption allowed, is a 429 with a `DisruptionBudget` cause; otherwise the budget records
 * the disruption (through its status subresource, as kube-apiserver's loopback client writes it;
 * a conflict there starts the eviction over, as kube retries it) and the pod is deleted with the
 * eviction's DeleteOptions (in storage: admission already saw the Eviction). Not-ready pods may be
 * evicted while the budget is met (`unhealthyPodEvictionPolicy: IfHealthyBudget`) or always
 * (`AlwaysAllow`).
 */

import { ApiError, errors } from "@opgen/apimachinery/status";
import { nowTime } from "../../api/meta.js";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { ApiClient } from "../../client/api-client.js";
import { retryOnConflict } from "../../client/retry.js";
import { deleteOptionsFrom } from "../../rest/delete-options.js";
import type { ObjectRest } from "../../rest/objects.js";
import type { RequestScope } from "../../rest/scope.js";
import type { Store } from "../../store/store.js";
import {
  type BudgetStatusSync,
  budgetSelects,
  PDB_RESOURCE,
  PDBS,
} from "../policy/pod-disruption-budgets.js";
import { isPodReady } from "./pod-conditions.js";

const MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";

function tooMany(cause: string): ApiError {
  return new ApiError(429, "TooManyRequests", MESSAGE, {
    causes: [{ reason: "DisruptionBudget", message: cause }],
  });
}

const success = {
  code: 201,
  body: {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    code: 201,
  } as KubeObject,
};

/** The eviction's other writers: the budgets' controller and kube-apiserver's loopback client. */
export interface EvictionDeps {
  rest: ObjectRest;
  store: Store;
  disruption: BudgetStatusSync;
  loopback: ApiClient;
}

/** kube's EvictionsRetry: a budget written meanwhile is read again (20 steps in kube). */
const EVICTION_RETRY = { steps: 20, delayMs: 10 };

export function evictPod(
  deps: EvictionDeps,
  scope: RequestScope,
  eviction: KubeObject,
): Promise<{ code: number; body: KubeObject }> {
  return retryOnConflict(() => evictOnce(deps, scope, eviction), EVICTION_RETRY);
}

async function evictOnce(
  { rest, store, disruption, loopback }: EvictionDeps,
  scope: RequestScope,
  eviction: KubeObject,
): Promise<{ code: number; body: KubeObject }> {
  const name = scope.name ?? "";
  if (eviction.metadata?.name !== undefined && eviction.metadata.name !== name)
    throw errors.badRequest(`name in URL does not match name in Eviction object`);
  const { subresource: _, ...podScope } = scope;
  const pod = rest.get(podScope);
  const opts = deleteOptionsFrom(
    scope.query,
    isObject(eviction.deleteOptions) ? eviction.deleteOptions : undefined,
  );
  const remove = () => {
    rest.delete(podScope, opts);
    return success;
  };
  const phase = (pod.status as JsonObject | undefined)?.phase;
  if (
    pod.metadata?.deletionTimestamp ||
    phase === "Succeeded" ||
    phase === "Failed" ||
    phase === "Pending"
  )
    return remove();

  const budgets = store
    .list(PDBS, pod.metadata?.namespace)
    .filter((pdb) => budgetSelects(pdb)(pod));
  if (budgets.length === 0) return remove();
  if (budgets.length > 1)
    throw errors.internal(
      "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
    );
  const pdb = await disruption.sync(budgets[0]!);
  const pdbName = pdb.metadata?.name ?? "";
  const status = (pdb.status ?? {}) as JsonObject;
  if ((status.observedGeneration as number | undefined) !== pdb.metadata?.generation)
    throw tooMany(`The disruption budget ${pdbName} is still being processed by the server.`);
  const healthy = Number(status.currentHealthy ?? 0);
  const desired = Number(status.desiredHealthy ?? 0);
  if (!isPodReady(pod)) {
    const policy = (pdb.spec as JsonObject | undefined)?.unhealthyPodEvictionPolicy;
    if (policy === "AlwaysAllow" || (healthy >= desired && desired > 0)) return remove();
  }
  const allowed = Number(status.disruptionsAllowed ?? 0);
  if (allowed < 0)
    throw errors.forbidden(
      { group: "policy", resource: "poddisruptionbudgets" },
      pdbName,
      "pdb disruptions allowed is negative",
    );
  if (allowed === 0)
    throw tooMany(
      `The disruption budget ${pdbName} needs ${desired} healthy pods and has ${healthy} currently`,
    );
  if (!opts.dryRun?.length && !scope.query.getAll("dryRun").length) {
    await loopback.changeStatus(PDB_RESOURCE, pdb, (s) => {
      s.disruptionsAllowed = allowed - 1;
      s.disruptedPods = {
        ...((s.disruptedPods as Record<string, string>) ?? {}),
        [name]: nowTime(),
      };
      return s;
    });
  }
  return remove();
}
