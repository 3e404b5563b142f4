/**
 * The REST verbs on stored objects with the semantics of kube-apiserver's generic registry
 * (`registry/generic/registry/store.go`), each resource's rules coming from its strategy. This
 * class adds the writes — create, update, patch and the status/scale subresources: server-set
 * metadata, optimistic concurrency, generation, status isolation, dryRun, and the write pipeline
 * (write-pipeline.ts: decoding, admission, validation) — to the reads (object-reads.ts) and the
 * deletions with finalizers and graceful deletion (object-deletes.ts).
 */

import { ApiError, errors } from "@opgen/apimachinery/status";
import { generateName, meta, newUid, nowTime } from "../api/meta.js";
import {
  deepClone,
  deepEqual,
  gr,
  groupVersion,
  type KubeObject,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type ResourceInfo,
  type ResourceVersionInfo,
  storageVersion,
} from "../api/types.js";
import { isDryRun } from "./delete-options.js";
import { recordManagedFields } from "./managed-fields.js";
import { ObjectDeletes } from "./object-deletes.js";
import { needsWebhook } from "./object-reads.js";
import { applyScale, toScale } from "./scale.js";
import { fromConverted, storageApiVersion } from "./schema-pipeline.js";
import type { RequestScope } from "./scope.js";
import { checkTypeAndNamespace, writeOptions, writePipeline } from "./write-pipeline.js";
import { ConcurrentWrite, runAsync, runSync, type Steps, type WriteResult } from "./write-steps.js";

/** The part of an object that bumps generation when it changes (default: spec). */
function generationRelevant(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  o: KubeObject,
): unknown {
  const strategy = info.strategy;
  return strategy.generationRelevant ? strategy.generationRelevant(o, version) : o.spec;
}

export class ObjectRest extends ObjectDeletes {
  // ---------------------------------------------------------------- create

  create(
    scope: RequestScope,
    body: KubeObject,
    opts: { managedFields?: ManagedFieldsEntry[] } = {},
  ): WriteResult {
    return runSync(this.createSteps(scope, deepClone(body), opts));
  }

  /**
   * create() for a request: admission and conversion webhooks are called. The body becomes the
   * stored object: callers pass one they own (a decoded request body, a copy), not a shared one.
   */
  createAsync(
    scope: RequestScope,
    body: KubeObject,
    opts: { managedFields?: ManagedFieldsEntry[] } = {},
  ): Promise<WriteResult> {
    return runAsync(this.createSteps(scope, body, opts), this.driver);
  }

  /** Creates `obj` (which it takes over and changes: see createAsync). */
  private *createSteps(
    scope: RequestScope,
    obj: KubeObject,
    opts: { managedFields?: ManagedFieldsEntry[] },
  ): Steps<WriteResult> {
    const info = scope.info;
    if (info.terminating) {
      throw new ApiError(
        405,
        "MethodNotAllowed",
        "create not allowed while custom resource definition is terminating",
      );
    }
    const dryRun = isDryRun(scope.query);
    checkTypeAndNamespace(scope, obj, "create");
    const m = meta(obj);
    const nameGenerated = !m.name && !!m.generateName;
    if (nameGenerated) m.name = generateName(m.generateName!);
    if (m.resourceVersion) {
      throw errors.internal("resourceVersion should not be set on objects to be created");
    }
    delete m.uid;
    delete m.creationTimestamp;
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
    delete m.generation;
    delete m.selfLink;
    if (m.ownerReferences) {
      const seen = new Set<string>();
      m.ownerReferences = m.ownerReferences.filter((r) => {
        if (seen.has(r.uid)) {
          scope.warnings.push(
            `metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${r.uid}`,
          );
          return false;
        }
        seen.add(r.uid);
        return true;
      });
    }
    const version = scope.version;
    if (version.status && scope.subresource !== "status" && !info.strategy.statusOnCreate) {
      delete obj.status;
    }
    // Before admission, as kube fills the system fields before validation (a Job's generated
    // selector names its uid).
    m.uid = newUid();
    yield* writePipeline(this.admission, scope, obj, undefined, dryRun);
    if (!m.name) {
      throw errors.invalid(info.kind, info.group, "", [
        {
          type: "FieldValueRequired",
          field: "metadata.name",
          detail: "name or generateName is required",
        },
      ]);
    }
    if (this.store.get(this.bucket(info), m.namespace, m.name)) {
      if (nameGenerated) {
        // Upstream retries generated names on conflict; one retry with a new suffix suffices here.
        m.name = generateName(m.generateName!);
      }
      if (this.store.get(this.bucket(info), m.namespace, m.name)) {
        throw errors.alreadyExists(gr(info), m.name);
      }
    }
    m.creationTimestamp = nowTime();
    if (info.generation) m.generation = 1;
    if (opts.managedFields) m.managedFields = opts.managedFields;
    else {
      recordManagedFields(obj, undefined, {
        manager: scope.manager,
        operation: "Update",
        apiVersion: groupVersion(info.group, version.name),
        subresource: scope.subresource,
        info,
        version,
      });
    }
    const stored = yield* this.toStorageSteps(info, obj);
    if (dryRun) {
      return { code: 201, body: yield* this.resultSteps(scope, stored) };
    }
    // The webhooks were awaited: another request may have taken the name meanwhile.
    if (this.store.get(this.bucket(info), m.namespace, m.name)) {
      throw errors.alreadyExists(gr(info), m.name);
    }
    const rv = this.store.nextRV();
    meta(stored).resourceVersion = String(rv);
    this.store.commit(this.bucket(info), "ADDED", stored, rv);
    return { code: 201, body: yield* this.resultSteps(scope, stored) };
  }

  /** toStorage() converting through the CRD's conversion webhook when the version differs. */
  private *toStorageSteps(info: ResourceInfo, obj: KubeObject): Steps<KubeObject> {
    const storage = storageVersion(info);
    if (needsWebhook(info, storage, obj)) {
      const [converted] = (yield {
        step: "convert",
        info,
        objects: [obj],
        version: storage,
      }) as [KubeObject];
      // The converter keeps the metadata object: the caller still sets fields on it.
      const m = obj.metadata;
      obj = fromConverted(info, storage, converted);
      if (m) obj.metadata = Object.assign(m, obj.metadata);
    }
    return this.toStorage(info, obj);
  }

  /** The stored form: storage version, type meta and metadata first (as clients print it). */
  private toStorage(info: ResourceInfo, obj: KubeObject): KubeObject {
    if (info.convert && obj.apiVersion !== storageApiVersion(info))
      obj = info.convert(obj, storageVersion(info).name);
    const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
    const ordered: KubeObject = {
      apiVersion: storageApiVersion(info),
      kind: info.kind,
      metadata,
      ...rest,
    };
    return info.sharedStorage ? info.sharedStorage.toStorage(ordered) : ordered;
  }

  // ---------------------------------------------------------------- update

  /**
   * Replaces an object (PUT), or stores the result of a patch. `precondition` is the
   * resourceVersion the client asserted; `requireRV` rejects a PUT without one for kinds that
   * forbid unconditional updates.
   */
  update(scope: RequestScope, body: KubeObject, opts: UpdateOptions = {}): WriteResult {
    return runSync(this.updateSteps(scope, body, opts));
  }

  /** update() for a request: admission and conversion webhooks are called. */
  updateAsync(
    scope: RequestScope,
    body: KubeObject,
    opts: UpdateOptions = {},
  ): Promise<WriteResult> {
    return runAsync(this.updateSteps(scope, body, opts), this.driver);
  }

  private *updateSteps(
    scope: RequestScope,
    body: KubeObject,
    opts: UpdateOptions,
  ): Steps<WriteResult> {
    const info = scope.info;
    const version = scope.version;
    const dryRun = isDryRun(scope.query);
    const oldStored = this.existing(scope);
    const old = yield* this.presentSteps(info, version, oldStored);
    // A status write keeps only the body's status (and statusMetadata): those are copied below,
    // the top level here, so that nothing of `body` is changed.
    const statusOnly = scope.subresource === "status";
    let obj = statusOnly ? { ...body, metadata: { ...(body.metadata ?? {}) } } : deepClone(body);
    checkTypeAndNamespace(scope, obj, "update");
    const m = meta(obj);
    if (m.name === undefined) m.name = scope.name;
    const om = old.metadata ?? {};

    const rv = m.resourceVersion;
    if (rv) {
      if (rv !== om.resourceVersion) throw errors.optimisticLock(gr(info), scope.name ?? "");
    } else if (!opts.patch && !info.unconditionalUpdate) {
      // Upstream names the resource, not the kind, in this message.
      throw errors.invalid(info.resource, info.group, scope.name ?? "", [
        {
          type: "FieldValueInvalid",
          field: "metadata.resourceVersion",
          value: 0n,
          detail: "must be specified for an update",
        },
      ]);
    }

    if (statusOnly) {
      const next = deepClone(old);
      next.status = deepClone(obj.status);
      if (next.status === undefined) delete next.status;
      for (const k of info.strategy.statusMetadata ?? []) {
        if (m[k] === undefined) delete meta(next)[k];
        else meta(next)[k] = deepClone(m[k]) as never;
      }
      meta(next).managedFields = m.managedFields ? deepClone(m.managedFields) : om.managedFields;
      obj = next;
    } else if (
      version.status &&
      !info.strategy.ownsSubresourceStatus?.includes(scope.subresource ?? "")
    ) {
      if (old.status === undefined) delete obj.status;
      else obj.status = deepClone(old.status);
    }
    const strategy = info.strategy;
    strategy.prepareForUpdate?.(obj, old, scope.subresource);
    const nm = meta(obj);
    if (nm.uid && nm.uid !== om.uid) {
      throw errors.invalid(info.kind, info.group, scope.name ?? "", [
        {
          type: "FieldValueInvalid",
          field: "metadata.uid",
          value: nm.uid,
          detail: "field is immutable",
        },
      ]);
    }
    nm.uid = om.uid;
    nm.creationTimestamp = om.creationTimestamp;
    nm.namespace = om.namespace;
    if (om.deletionTimestamp) nm.deletionTimestamp = om.deletionTimestamp;
    else delete nm.deletionTimestamp;
    if (om.deletionGracePeriodSeconds !== undefined)
      nm.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
    else delete nm.deletionGracePeriodSeconds;
    if (om.generation !== undefined) nm.generation = om.generation;
    else delete nm.generation;
    nm.resourceVersion = om.resourceVersion;

    if (opts.webhooks === false) runSync(writePipeline(this.admission, scope, obj, old, dryRun));
    else yield* writePipeline(this.admission, scope, obj, old, dryRun);
    // Webhook-converted objects are compared in the storage version (the converter keeps the
    // metadata object, so the generation set below still lands on what is stored).
    const storedFirst = info.conversionWebhook ? yield* this.toStorageSteps(info, obj) : undefined;
    if (
      info.generation &&
      !deepEqual(
        storedFirst
          ? generationRelevant(info, storageVersion(info), storedFirst)
          : generationRelevant(info, version, obj),
        generationRelevant(info, version, info.convert || storedFirst ? oldStored : old),
      )
    ) {
      nm.generation = (om.generation ?? 0) + 1;
    }
    if (opts.managedFields) nm.managedFields = opts.managedFields;
    else {
      recordManagedFields(obj, old, {
        manager: scope.manager,
        operation: "Update",
        apiVersion: groupVersion(info.group, version.name),
        subresource: scope.subresource,
        info,
        version,
      });
    }

    const stored = this.toStorage(info, storedFirst ?? obj);
    // Compare against the stored form (other versions' defaults must not count as changes).
    // (toStorage only rebuilds the top level unless the resource converts: no copy needed then.)
    const oldForm = info.convert || info.sharedStorage ? deepClone(oldStored) : oldStored;
    const unchanged = deepEqual(
      stripVolatile(stored),
      stripVolatile(this.toStorage(info, oldForm)),
    );
    const finalizersGone =
      !!nm.deletionTimestamp &&
      (nm.finalizers ?? []).length === 0 &&
      (strategy.pendingFinalizers?.(obj) ?? []).length === 0;
    if (unchanged && !finalizersGone) {
      return { code: 200, body: yield* this.resultSteps(scope, oldStored) };
    }
    // The webhooks were awaited: a concurrent write wins, as etcd's compare-and-swap decides.
    // A PUT that named a resourceVersion conflicts; a patch is applied again to the new object
    // (retryConcurrent), where a resourceVersion the patch itself set then conflicts.
    if (this.store.get(this.bucket(info), scope.namespace, scope.name ?? "") !== oldStored) {
      if (rv && !opts.patch) throw errors.optimisticLock(gr(info), scope.name ?? "");
      throw new ConcurrentWrite(gr(info), scope.name ?? "");
    }
    if (finalizersGone) {
      if (dryRun) return { code: 200, body: yield* this.resultSteps(scope, stored) };
      const drv = this.store.nextRV();
      nm.resourceVersion = String(drv);
      this.store.commit(this.bucket(info), "DELETED", stored, drv, oldStored);
      return { code: 200, body: yield* this.resultSteps(scope, stored) };
    }
    if (dryRun) return { code: 200, body: yield* this.resultSteps(scope, stored) };
    const nrv = this.store.nextRV();
    nm.resourceVersion = String(nrv);
    this.store.commit(this.bucket(info), "MODIFIED", stored, nrv, oldStored);
    return { code: 200, body: yield* this.resultSteps(scope, stored) };
  }

  /**
   * A write kube-apiserver's own storage code makes (a registry's `GuaranteedUpdate`, as the pod
   * binding storage assigns a node): past admission, validation and the field manager, keeping
   * the store's invariants (a new resourceVersion, a MODIFIED event, committed objects never
   * changed). `mutate` changes a copy of the stored object and may throw to refuse; nothing is
   * written when nothing changed. Returns what is stored.
   */
  storageUpdate(scope: RequestScope, mutate: (copy: KubeObject) => void): KubeObject {
    const current = this.existing(scope);
    const next = deepClone(current);
    mutate(next);
    if (deepEqual(next, current)) return current;
    const rv = this.store.nextRV();
    meta(next).resourceVersion = String(rv);
    this.store.commit(this.bucket(scope.info), "MODIFIED", next, rv, current);
    return next;
  }

  // ---------------------------------------------------------------- scale

  getScale(scope: RequestScope): KubeObject {
    return toScale(scope.version, this.get(scope));
  }

  async getScaleAsync(scope: RequestScope): Promise<KubeObject> {
    return toScale(scope.version, await this.getAsync(scope));
  }

  /**
   * Admission of a POST to a subresource (`pods/eviction`, `pods/binding`,
   * `serviceaccounts/token`): the body is the object webhooks see, of the subresource's kind.
   */
  async admitSubresourceCreate(
    scope: RequestScope,
    body: KubeObject,
    kind: { group: string; version: string; kind: string },
  ): Promise<KubeObject> {
    if (!this.driver) return body;
    return runAsync(this.admitSubresourceSteps(scope, body, kind), this.driver);
  }

  private *admitSubresourceSteps(
    scope: RequestScope,
    body: KubeObject,
    kind: { group: string; version: string; kind: string },
  ): Steps<KubeObject> {
    const request = {
      scope,
      operation: "CREATE" as const,
      options: writeOptions(scope, "CREATE"),
      dryRun: isDryRun(scope.query),
      kind,
    };
    const mutated = yield* this.admission.mutate({ ...request, object: body }, false);
    const obj = mutated ?? body;
    yield* this.admission.validate({ ...request, object: deepClone(obj) }, false);
    return obj;
  }

  /** Writes a Scale back onto its object: only the spec replicas path changes. */
  updateScale(scope: RequestScope, scaleObj: KubeObject): WriteResult {
    return runSync(this.updateScaleSteps(scope, scaleObj));
  }

  updateScaleAsync(scope: RequestScope, scaleObj: KubeObject): Promise<WriteResult> {
    return runAsync(this.updateScaleSteps(scope, scaleObj), this.driver);
  }

  /** Webhooks matching `<resource>/scale` see autoscaling/v1 Scale objects, as on kube. */
  private *updateScaleSteps(scope: RequestScope, scaleObj: KubeObject): Steps<WriteResult> {
    const current = yield* this.getSteps(scope);
    const rv = (scaleObj.metadata as ObjectMeta | undefined)?.resourceVersion;
    if (rv && rv !== current.metadata?.resourceVersion) {
      throw errors.optimisticLock(gr(scope.info), scope.name ?? "");
    }
    const request = {
      scope,
      operation: "UPDATE" as const,
      oldObject: toScale(scope.version, current),
      options: writeOptions(scope, "UPDATE"),
      dryRun: isDryRun(scope.query),
    };
    const mutated = yield* this.admission.mutate({ ...request, object: scaleObj }, false);
    const scale = mutated ?? scaleObj;
    yield* this.admission.validate({ ...request, object: deepClone(scale) }, false);
    const next = applyScale(scope.version, scope.name ?? "", current, scale);
    const r = yield* this.updateSteps({ ...scope, subresource: undefined }, next, {
      patch: true,
      webhooks: false,
    });
    return { code: r.code, body: toScale(scope.version, r.body) };
  }
}

/**
 * A write that lost a race while its webhooks were awaited, the client having asserted no
 * resourceVersion: kube's GuaranteedUpdate tries such a write again on the new object.
 */
export interface UpdateOptions {
  patch?: boolean;
  managedFields?: ManagedFieldsEntry[];
  /** false: the caller already ran the webhooks (a Scale written onto its object). */
  webhooks?: boolean;
}

/**
 * What a write compares to tell a no-op: the object without its resourceVersion and with the
 * managedFields' times left out (kube's IgnoreManagedFieldsTimestampsTransformer), so a write
 * that changes only who owns what (an apply sharing a value) is stored, as on a cluster.
 */
function stripVolatile(o: KubeObject): KubeObject {
  const c = { ...o, metadata: { ...(o.metadata ?? {}) } };
  delete c.metadata.resourceVersion;
  if (c.metadata.managedFields)
    c.metadata.managedFields = c.metadata.managedFields.map(({ time: _t, ...e }) => e);
  return c;
}
