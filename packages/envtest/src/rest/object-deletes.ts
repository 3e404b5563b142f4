import { errors } from "@opgen/apimachinery/status";
import { meta, nowTime } from "../api/meta.js";
import {
  deepEqual,
  gr,
  groupVersion,
  type JsonObject,
  type KubeObject,
  type ResourceInfo,
  type ResourceVersionInfo,
} from "../api/types.js";
import { type DeleteOptions, isDryRun, validateDeleteOptions } from "./delete-options.js";
import { needsWebhook, ObjectReads } from "./object-reads.js";
import type { RequestScope } from "./scope.js";
import { ConcurrentWrite, runAsync, runSync, type Steps, type WriteResult } from "./write-steps.js";

export class ObjectDeletes extends ObjectReads {
  // ---------------------------------------------------------------- delete

  delete(scope: RequestScope, opts: DeleteOptions): WriteResult {
    return runSync(this.deleteSteps(scope, opts));
  }

  /** delete() for a request: admission and conversion webhooks are called. */
  deleteAsync(scope: RequestScope, opts: DeleteOptions): Promise<WriteResult> {
    return runAsync(this.deleteSteps(scope, opts), this.driver);
  }

  private *deleteSteps(scope: RequestScope, opts: DeleteOptions): Steps<WriteResult> {
    const info = scope.info;
    validateDeleteOptions(opts);
    const dryRun = isDryRun(scope.query, opts);
    const stored = this.existing(scope);
    const sm = stored.metadata ?? {};
    const forbidden = info.strategy.deleteForbidden?.(stored);
    if (forbidden) throw errors.forbidden(gr(info), sm.name ?? "", forbidden);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== sm.uid) {
      throw errors.conflict(
        gr(info),
        sm.name ?? "",
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${sm.uid}`,
      );
    }
    if (pre?.resourceVersion && pre.resourceVersion !== sm.resourceVersion) {
      throw errors.conflict(
        gr(info),
        sm.name ?? "",
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${sm.resourceVersion}`,
      );
    }
    yield* this.admitDelete(scope, stored, opts, dryRun);
    // The webhooks were awaited: the object may have changed meanwhile.
    const current = this.existing(scope);
    if (current !== stored) {
      if (pre?.resourceVersion || pre?.uid) throw errors.optimisticLock(gr(info), sm.name ?? "");
      throw new ConcurrentWrite(gr(info), sm.name ?? "");
    }
    return yield* this.deleteStoredSteps(info, scope.version, stored, opts, dryRun, {
      readOnlyResult: scope.readOnlyResult === true,
    });
  }

  /**
   * Admission of a deletion: no new object, the existing one as oldObject and the DeleteOptions
   * (`apiserver: pkg/registry/rest/delete.go` AdmissionToValidateObjectDeleteFunc).
   */
  private *admitDelete(
    scope: RequestScope,
    stored: KubeObject,
    opts: DeleteOptions,
    dryRun: boolean,
  ): Steps<void> {
    // Webhooks and policies only read it: a read-only view unless it needs converting.
    const oldObject = needsWebhook(scope.info, scope.version, stored)
      ? yield* this.presentSteps(scope.info, scope.version, stored)
      : this.view(scope.info, scope.version, stored);
    const options = { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1", ...opts } as JsonObject;
    const itemScope = { ...scope, name: stored.metadata?.name ?? "" };
    const request = { scope: itemScope, operation: "DELETE" as const, oldObject, options, dryRun };
    yield* this.admission.mutate(request, false);
    yield* this.admission.validate(request, false);
  }

  /** The deletion flow of store.go Delete, for one stored object. */
  deleteStored(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    stored: KubeObject,
    opts: DeleteOptions,
    dryRun = false,
  ): WriteResult {
    return runSync(this.deleteStoredSteps(info, version, stored, opts, dryRun));
  }

  private *deleteStoredSteps(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    stored: KubeObject,
    opts: DeleteOptions,
    dryRun: boolean,
    result: { readOnlyResult?: boolean } = {},
  ): Steps<WriteResult> {
    const readOnly = result.readOnlyResult === true;
    // A deletion changes metadata only (and a namespace's status, replaced whole): the rest is
    // shared with the stored object, which is never changed.
    const next: KubeObject = { ...stored, metadata: { ...(stored.metadata ?? {}) } };
    const nm = meta(next);
    const sm = stored.metadata ?? {};
    let finalizers = [...(nm.finalizers ?? [])];
    const policy =
      opts.propagationPolicy ??
      (opts.orphanDependents === true
        ? "Orphan"
        : opts.orphanDependents === false
          ? "Background"
          : undefined);
    if (policy === "Orphan") {
      finalizers = finalizers.filter((f) => f !== "foregroundDeletion");
      if (!finalizers.includes("orphan")) finalizers.push("orphan");
    } else if (policy === "Foreground") {
      finalizers = finalizers.filter((f) => f !== "orphan");
      if (!finalizers.includes("foregroundDeletion")) finalizers.push("foregroundDeletion");
    } else if (policy === "Background") {
      finalizers = finalizers.filter((f) => f !== "orphan" && f !== "foregroundDeletion");
    }
    const strategy = info.strategy;
    const pending = strategy.pendingFinalizers?.(next) ?? [];
    const graceful = strategy.gracePeriodSeconds?.(next, opts.gracePeriodSeconds) ?? 0;
    if (finalizers.length > 0 || pending.length > 0 || graceful) {
      const first = !sm.deletionTimestamp;
      const changedFinalizers = !deepEqual(finalizers, sm.finalizers ?? []);
      if (!first && !changedFinalizers) {
        return { code: 200, body: yield* this.answerSteps(info, version, stored, readOnly) };
      }
      if (finalizers.length > 0) nm.finalizers = finalizers;
      else delete nm.finalizers;
      if (first) {
        nm.deletionTimestamp = graceful ? nowTime(Date.now() + graceful * 1000) : nowTime();
        nm.deletionGracePeriodSeconds = graceful || 0;
        if (info.generation && nm.generation !== undefined) nm.generation += 1;
        strategy.beginDeletion?.(next);
      }
      if (dryRun) return { code: 200, body: yield* this.presentSteps(info, version, next) };
      const rv = this.store.nextRV();
      nm.resourceVersion = String(rv);
      this.store.commit(this.bucket(info), "MODIFIED", next, rv, stored);
      return {
        code: opts.orphanDependents === false ? 202 : 200,
        body: yield* this.answerSteps(info, version, next, readOnly),
      };
    }
    if (dryRun) return { code: 200, body: yield* this.deleteResponse(info, version, next) };
    const rv = this.store.nextRV();
    nm.resourceVersion = String(rv);
    this.store.commit(this.bucket(info), "DELETED", next, rv, stored);
    return { code: 200, body: yield* this.deleteResponse(info, version, next, readOnly) };
  }

  /** A deletion's answer: a read-only view when the caller only serializes it (resultSteps). */
  private *answerSteps(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    obj: KubeObject,
    readOnly: boolean,
  ): Steps<KubeObject> {
    if (readOnly && !needsWebhook(info, version, obj)) return this.view(info, version, obj);
    return yield* this.presentSteps(info, version, obj);
  }

  private *deleteResponse(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    obj: KubeObject,
    readOnly = false,
  ): Steps<KubeObject> {
    if (info.returnDeletedObject) return yield* this.answerSteps(info, version, obj, readOnly);
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: {
        name: obj.metadata?.name,
        ...(info.group ? { group: info.group } : {}),
        kind: info.resource,
        uid: obj.metadata?.uid,
      },
    };
  }

  deleteCollection(scope: RequestScope, opts: DeleteOptions): WriteResult {
    return runSync(this.deleteCollectionSteps(scope, opts));
  }

  /** deleteCollection() for a request: admission per item, as kube runs it. */
  deleteCollectionAsync(scope: RequestScope, opts: DeleteOptions): Promise<WriteResult> {
    return runAsync(this.deleteCollectionSteps(scope, opts), this.driver);
  }

  private *deleteCollectionSteps(scope: RequestScope, opts: DeleteOptions): Steps<WriteResult> {
    validateDeleteOptions(opts);
    const dryRun = isDryRun(scope.query, opts);
    const match = this.matcher(scope);
    const ns = scope.info.namespaced ? scope.namespace : undefined;
    const items = this.store.list(this.bucket(scope.info), ns).filter(match);
    const deleted: KubeObject[] = [];
    for (const o of items) {
      yield* this.admitDelete(scope, o, opts, dryRun);
      const r = yield* this.deleteStoredSteps(scope.info, scope.version, o, opts, dryRun);
      deleted.push(
        r.body.kind === "Status" ? yield* this.presentSteps(scope.info, scope.version, o) : r.body,
      );
    }
    return {
      code: 200,
      body: {
        apiVersion: groupVersion(scope.info.group, scope.version.name),
        kind: scope.info.listKind,
        metadata: { resourceVersion: String(this.store.currentRV()) },
        items: deleted,
      },
    };
  }
}
