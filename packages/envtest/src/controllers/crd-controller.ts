/**
 * The apiextensions controllers a CRD goes through in kube-apiserver: naming (NamesAccepted or
 * a conflict with another CRD of the group), establishing (Established → served and listed in
 * discovery), storedVersions bookkeeping, and finalization (Terminating: delete every custom
 * resource, each through its own finalizers, then release the CRD). They write the CRD through
 * the API as kube-apiserver's loopback client (its status subresource, as kube's do); the custom
 * resources are deleted inside storage, as kube's finalizer deletes them (no admission).
 */
import { nowTime } from "../api/meta.js";
import { bucketKey, type Registry } from "../api/registry.js";
import { type JsonObject, type KubeObject, storageVersion } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { apiserverIdentity } from "../client/identities.js";
import { conversionWebhookOf } from "../crd/conversion.js";
import type { Crd, CrdNames } from "../crd/crd.js";
import { crdCleanupFinalizer } from "../registry/apiextensions/cleanup-finalizer.js";
import { customResourceFromCrd } from "../registry/custom/index.js";
import type { ObjectRest } from "../rest/objects.js";
import type { Store, StoreEvent } from "../store/store.js";
import { WorkQueue } from "./work-queue.js";

export const crdBucket = bucketKey("apiextensions.k8s.io", "customresourcedefinitions");
const CRDS = {
  group: "apiextensions.k8s.io",
  version: "v1",
  resource: "customresourcedefinitions",
};
const STATUS = { subresource: "status" };

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

function setCondition(conds: Condition[], c: Condition): Condition[] {
  const out = conds.filter((x) => x.type !== c.type);
  const prev = conds.find((x) => x.type === c.type);
  const ltt = prev && prev.status === c.status ? prev.lastTransitionTime : nowTime();
  out.push({ ...c, lastTransitionTime: ltt ?? nowTime() });
  const order = ["NamesAccepted", "Established", "Terminating"];
  return out.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
}

export class CrdController {
  private unsubscribe: () => void = () => {};
  private readonly queue: WorkQueue;
  private readonly client: ApiClient;
  /** CRDs whose custom resources are still being deleted, and the watch that waits for them. */
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly rest: ObjectRest,
    client: InternalClient,
  ) {
    this.client = client.as(apiserverIdentity());
    // Right after the write that announced a change, as a separate write with its own event.
    this.queue = new WorkQueue(async (name) => {
      await this.reconcile(name);
      return false;
    }, 0);
  }

  start(): void {
    this.queue.start();
    this.unsubscribe = this.store.subscribe(crdBucket, (ev) => this.onEvent(ev));
    // After a restart: whatever changed or was waiting while stopped.
    for (const crd of this.store.list(crdBucket)) this.queue.add(crd.metadata?.name ?? "");
  }

  stop(): void {
    this.queue.stop();
    this.unsubscribe();
    for (const off of this.waiting.values()) off();
    this.waiting.clear();
  }

  private onEvent(ev: StoreEvent): void {
    const name = ev.object.metadata?.name ?? "";
    if (ev.type === "DELETED") {
      const crd = ev.object as Crd;
      const info = this.registry.get(
        crd.spec.group,
        crd.status?.acceptedNames?.plural ?? crd.spec.names.plural,
      );
      if (info?.crdName === name) this.registry.remove(info.group, info.resource);
      return;
    }
    this.queue.add(name);
  }

  /** Brings one CRD's status and serving state up to date. */
  private async reconcile(name: string): Promise<void> {
    const current = this.store.get(crdBucket, undefined, name) as Crd | undefined;
    if (!current) return;
    if (current.metadata?.deletionTimestamp) {
      await this.finalize(current);
      return;
    }
    const conflict = this.namesConflict(current);
    const updated = (await this.client.change(
      CRDS,
      current,
      (c) => {
        const crd = c as Crd;
        if (!crd.status) crd.status = {};
        const status = crd.status;
        let conds = (status.conditions ?? []) as unknown as Condition[];
        if (conflict) {
          conds = setCondition(conds, {
            type: "NamesAccepted",
            status: "False",
            reason: conflict.reason,
            message: conflict.message,
          });
          if (!conds.some((x) => x.type === "Established")) {
            conds = setCondition(conds, {
              type: "Established",
              status: "False",
              reason: "NotAccepted",
              message: "not all names are accepted",
            });
          }
        } else {
          status.acceptedNames = { ...crd.spec.names };
          conds = setCondition(conds, {
            type: "NamesAccepted",
            status: "True",
            reason: "NoConflicts",
            message: "no conflicts found",
          });
          conds = setCondition(conds, {
            type: "Established",
            status: "True",
            reason: "InitialNamesAccepted",
            message: "the initial names have been accepted",
          });
        }
        status.conditions = conds as unknown as JsonObject[];
        const sv = crd.spec.versions.find((v) => v.storage)?.name;
        const stored = status.storedVersions ?? [];
        if (sv && !stored.includes(sv)) stored.push(sv);
        status.storedVersions = stored;
      },
      STATUS,
    )) as Crd;
    if (!conflict && updated.status?.acceptedNames) {
      const info = customResourceFromCrd(updated, this.registry.kube);
      const webhook = conversionWebhookOf(updated);
      if (webhook) info.conversionWebhook = webhook;
      const prev = this.registry.get(info.group, info.resource);
      if (!prev || prev.crdName === name) this.registry.put(info);
    }
  }

  private namesConflict(crd: Crd): { reason: string; message: string } | undefined {
    const names = crd.spec.names;
    for (const other of this.store.list(crdBucket) as Crd[]) {
      if (other.metadata?.name === crd.metadata?.name || other.spec.group !== crd.spec.group)
        continue;
      const taken: CrdNames = other.status?.acceptedNames ?? other.spec.names;
      const used = (n: string | undefined) =>
        !!n && [taken.plural, taken.singular, ...(taken.shortNames ?? [])].includes(n);
      if (used(names.plural))
        return { reason: "PluralConflict", message: `"${names.plural}" is already in use` };
      if (used(names.singular))
        return { reason: "SingularConflict", message: `"${names.singular}" is already in use` };
      for (const s of names.shortNames ?? []) {
        if (used(s)) return { reason: "ShortNamesConflict", message: `"${s}" is already in use` };
      }
      if (names.kind === taken.kind)
        return { reason: "KindConflict", message: `"${names.kind}" is already in use` };
      if (names.listKind && names.listKind === taken.listKind) {
        return { reason: "ListKindConflict", message: `"${names.listKind}" is already in use` };
      }
    }
    return undefined;
  }

  /** Terminating: stop accepting creates, delete all CRs, then drop the cleanup finalizer. */
  private async finalize(crd: Crd): Promise<void> {
    const plural = crd.status?.acceptedNames?.plural ?? crd.spec.names.plural;
    const info = this.registry.get(crd.spec.group, plural);
    const name = crd.metadata?.name ?? "";
    const bucket = bucketKey(crd.spec.group, plural);
    if (info && info.crdName === name) {
      if (!info.terminating) {
        info.terminating = true;
        this.registry.generation++;
      }
      const version = storageVersion(info);
      for (const o of this.store.list(bucket)) {
        if (!o.metadata?.deletionTimestamp) this.rest.deleteStored(info, version, o, {});
      }
    }
    const current = (await this.client.change(
      CRDS,
      crd,
      (c) => {
        const crd = c as Crd;
        if (!crd.status) crd.status = {};
        const status = crd.status;
        status.conditions = setCondition((status.conditions ?? []) as unknown as Condition[], {
          type: "Terminating",
          status: "True",
          reason: "InstanceDeletionInProgress",
          message: "CustomResource deletion is in progress",
        }) as unknown as JsonObject[];
      },
      STATUS,
    )) as Crd;
    if (this.store.count(bucket) > 0) {
      // CRs still finalizing: look again once they are gone.
      if (this.waiting.has(name)) return;
      const off = this.store.subscribe(bucket, () => {
        if (this.store.count(bucket) > 0) return;
        off();
        this.waiting.delete(name);
        this.queue.add(name);
      });
      this.waiting.set(name, off);
      return;
    }
    if (info && info.crdName === name) this.registry.remove(info.group, info.resource);
    // kube removes the finalizer through the status subresource (its CRD status strategy keeps
    // finalizers); envtest's keeps only the status, so this is an update of the CRD itself.
    const latest = (this.store.get(crdBucket, undefined, name) ?? current) as KubeObject;
    await this.client.change(CRDS, latest, (c) => {
      const m = c.metadata ?? {};
      m.finalizers = (m.finalizers ?? []).filter((f) => f !== crdCleanupFinalizer);
    });
  }
}
