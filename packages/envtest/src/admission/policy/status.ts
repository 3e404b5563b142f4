/**
 * kube-controller-manager's ValidatingAdmissionPolicy status controller
 * (`pkg/controller/validatingadmissionpolicystatus`): for each policy whose generation is past
 * `status.observedGeneration`, writes to the status subresource, as
 * `validatingadmissionpolicy-status-controller`, the observed generation and the type-checking
 * warnings of its expressions (type-checking.ts). kube applies the status (server-side apply,
 * forced); this writes it with an update (envtest's apply would keep warnings an empty
 * `typeChecking` no longer lists), so its managedFields entry says Update.
 */

import { bucketKey, type Registry } from "../../api/registry.js";
import { deepClone, isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { ApiClient, InternalClient } from "../../client/api-client.js";
import { controllerIdentity } from "../../client/identities.js";
import type { Store } from "../../store/store.js";
import { GROUP, policySpec } from "./source.js";
import { typeCheck } from "./type-checking.js";

const RESOURCE = "validatingadmissionpolicies";
const MANAGER = "validatingadmissionpolicy-status-controller";

export class PolicyStatusController {
  private unsubscribe?: () => void;
  private readonly pending = new Set<string>();
  private readonly client: ApiClient;

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    client: InternalClient,
  ) {
    this.client = client.as(controllerIdentity("validatingadmissionpolicy-status-controller"));
  }

  start(): void {
    const bucket = bucketKey(GROUP, RESOURCE);
    this.unsubscribe = this.store.subscribe(bucket, (e) => {
      if (e.type !== "DELETED") this.enqueue(e.object);
    });
    for (const p of this.store.list(bucket)) this.enqueue(p);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.pending.clear();
  }

  private enqueue(policy: KubeObject): void {
    const name = policy.metadata?.name ?? "";
    if (!this.stale(policy) || this.pending.has(name)) return;
    this.pending.add(name);
    // Out of the writer's call, as a controller's informer would see it.
    setImmediate(() => {
      this.pending.delete(name);
      // A refused write (a conflict, the policy gone) waits for the policy's next event.
      this.reconcile(name).catch(() => {});
    });
  }

  private stale(policy: KubeObject): boolean {
    const status = isObject(policy.status) ? (policy.status as JsonObject) : {};
    const observed = typeof status.observedGeneration === "number" ? status.observedGeneration : 0;
    return (policy.metadata?.generation ?? 0) > observed;
  }

  private async reconcile(name: string): Promise<void> {
    if (!this.unsubscribe) return;
    const policy = this.store.get(bucketKey(GROUP, RESOURCE), undefined, name);
    if (!policy || !this.stale(policy)) return;
    const warnings = typeCheck(this.registry, policySpec(policy));
    const next = deepClone(policy);
    next.status = {
      observedGeneration: policy.metadata?.generation ?? 0,
      typeChecking: warnings.length ? { expressionWarnings: warnings } : {},
    };
    await this.client.updateStatus({ group: GROUP, version: "v1", resource: RESOURCE }, next, {
      fieldManager: MANAGER,
    });
  }
}
