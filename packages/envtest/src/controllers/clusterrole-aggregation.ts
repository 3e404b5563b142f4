/**
 * kube-controller-manager's ClusterRole aggregation controller: a ClusterRole with an
 * `aggregationRule` gets, as its `rules`, the rules of every other ClusterRole its selectors
 * match (selector by selector, roles by name, each rule once), written by server-side apply as
 * `clusterrole-aggregation-controller` with force, as upstream writes them. The authorizer reads
 * only stored rules, so aggregation is seen the way a cluster shows it: in `kubectl get
 * clusterrole -o yaml` and, once the controller ran, in what the role grants. Any ClusterRole
 * event re-syncs every aggregating role (upstream does the same: the set is small and the
 * dependency graph unknown).
 */

import { deepEqual } from "@opgen/apimachinery/schema";
import { type LabelSelectorObject, labelSelectorAsSelector } from "@opgen/apimachinery/selectors";
import { bucketKey } from "../api/registry.js";
import type { JsonObject, KubeObject } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import type { Store } from "../store/store.js";

const GROUP = "rbac.authorization.k8s.io";
const CLUSTER_ROLES = bucketKey(GROUP, "clusterroles");
export const AGGREGATION_MANAGER = "clusterrole-aggregation-controller";
const MAX_BACKOFF_MS = 30_000;

interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[] | null;
}

/** Go's semantic equality treats an empty and a missing list alike; JSON keeps them apart. */
function normalizedRule(rule: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(rule)) {
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

/** The rules an aggregating role should hold, or undefined when a selector cannot be read. */
export function aggregatedRules(
  role: KubeObject,
  all: readonly KubeObject[],
): JsonObject[] | undefined {
  const rule = role.aggregationRule as AggregationRule | undefined;
  const out: JsonObject[] = [];
  const seen: JsonObject[] = [];
  const byName = [...all].sort((a, b) =>
    (a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1,
  );
  for (const selectorObject of rule?.clusterRoleSelectors ?? []) {
    let matches: (labels: Record<string, string>) => boolean;
    try {
      const selector = labelSelectorAsSelector(selectorObject);
      matches = (labels) => selector.matches(labels);
    } catch {
      return undefined;
    }
    for (const other of byName) {
      if (other.metadata?.name === role.metadata?.name) continue;
      if (!matches(other.metadata?.labels ?? {})) continue;
      for (const r of (other.rules as JsonObject[] | undefined) ?? []) {
        const n = normalizedRule(r);
        if (seen.some((s) => deepEqual(s, n))) continue;
        seen.push(n);
        out.push(r);
      }
    }
  }
  return out;
}

function sameRules(a: readonly JsonObject[], b: readonly JsonObject[]): boolean {
  return (
    a.length === b.length && a.every((r, i) => deepEqual(normalizedRule(r), normalizedRule(b[i]!)))
  );
}

export class ClusterRoleAggregationController {
  private unsubscribe?: () => void;
  private scheduled = false;
  private running = false;
  private retry?: NodeJS.Timeout;
  private backoff = 50;
  private readonly client: ApiClient;

  constructor(
    private readonly store: Store,
    client: InternalClient,
  ) {
    this.client = client.as(controllerIdentity("clusterrole-aggregation-controller"));
  }

  start(): void {
    this.unsubscribe = this.store.subscribeAll((e) => {
      if (e.bucket === CLUSTER_ROLES) this.schedule();
    });
    this.schedule();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
  }

  private schedule(): void {
    if (this.scheduled || !this.unsubscribe) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.syncAll();
    });
  }

  private async syncAll(): Promise<void> {
    // One pass at a time; events during a pass schedule the next one.
    if (this.running) {
      this.schedule();
      return;
    }
    this.running = true;
    let failed = false;
    try {
      for (const role of this.store.list(CLUSTER_ROLES)) {
        if (!this.unsubscribe) return;
        if (!role.aggregationRule) continue;
        try {
          await this.sync(role);
        } catch {
          failed = true;
        }
      }
    } finally {
      this.running = false;
    }
    if (!failed) {
      this.backoff = 50;
      return;
    }
    // Upstream requeues with rate limiting; a refused write (a webhook, say) is retried.
    if (this.unsubscribe && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.schedule();
      }, this.backoff);
      this.retry.unref();
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    }
  }

  private async sync(role: KubeObject): Promise<void> {
    const rules = aggregatedRules(role, this.store.list(CLUSTER_ROLES));
    if (!rules) return;
    if (sameRules(rules, (role.rules as JsonObject[] | undefined) ?? [])) return;
    const name = role.metadata?.name ?? "";
    const body: KubeObject = {
      apiVersion: `${GROUP}/v1`,
      kind: "ClusterRole",
      metadata: { name },
      // An empty result is applied without rules (upstream's nil slice), releasing them.
      ...(rules.length > 0 ? { rules } : {}),
    };
    await this.client.apply({ group: GROUP, version: "v1", resource: "clusterroles" }, body, {
      fieldManager: AGGREGATION_MANAGER,
      force: true,
    });
  }
}
