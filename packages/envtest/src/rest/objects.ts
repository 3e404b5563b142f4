/**
 * The REST verbs on stored objects — create, get, list, update, patch, delete,
 * deletecollection and the status/scale subresources — with the semantics of kube-apiserver's
 * generic registry (`registry/generic/registry/store.go`) and the CR strategies: server-set
 * metadata, optimistic concurrency, generation, status isolation, finalizers and graceful
 * deletion, dryRun, and the create/update admission envtest's apiserver runs (namespace lifecycle).
 */

import {
  type LabelSelector,
  parseFieldSelector,
  parseLabelSelector,
} from "@opgen/apimachinery/selectors";
import { ApiError, errors } from "@opgen/apimachinery/status";
import { generateName, newUid, nowTime } from "../api/meta.js";
import { bucketOf } from "../api/registry.js";
import {
  deepClone,
  deepEqual,
  groupVersion,
  type KubeObject,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type ResourceInfo,
  type ResourceVersionInfo,
  storageVersion,
} from "../api/types.js";
import { strategyFor } from "../registry/index.js";
import type { Store } from "../store/store.js";
import { type AdmissionHook, admit, checkTypeAndNamespace, gr, meta } from "./admission.js";
import { type DeleteOptions, isDryRun, validateDeleteOptions } from "./delete-options.js";
import { fieldMatcher } from "./field-selectors.js";
import { checkGetOptions, checkListOptions, paginate } from "./list-options.js";
import { recordManagedFields } from "./managed-fields.js";
import { admitNamespace } from "./namespace-lifecycle.js";
import { applyScale, toScale } from "./scale.js";
import { fromStorage, storageApiVersion } from "./schema-pipeline.js";
import type { RequestScope } from "./scope.js";

export interface WriteResult {
  code: number;
  body: KubeObject;
}

/** The part of an object that bumps generation when it changes (default: spec). */
function generationRelevant(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  o: KubeObject,
): unknown {
  const strategy = strategyFor(info);
  return strategy.generationRelevant ? strategy.generationRelevant(o, version) : o.spec;
}

export class ObjectRest {
  readonly hooks: AdmissionHook[] = [];

  constructor(private readonly store: Store) {}

  private bucket(info: ResourceInfo): string {
    return bucketOf(info);
  }

  private existing(scope: RequestScope): KubeObject {
    const found = this.store.get(this.bucket(scope.info), scope.namespace, scope.name ?? "");
    if (!found) throw errors.notFound(gr(scope.info), scope.name ?? "");
    return found;
  }

  // ---------------------------------------------------------------- reads

  /** The object in the requested version (read-only, see view()). */
  get(scope: RequestScope): KubeObject {
    checkGetOptions(scope.query, this.store.currentRV());
    const stored = this.existing(scope);
    return this.view(scope.info, scope.version, stored);
  }

  /** Serves a stored object in the requested version. */
  present(info: ResourceInfo, version: ResourceVersionInfo, stored: KubeObject): KubeObject {
    if (info.sharedStorage) return deepClone(info.sharedStorage.fromStorage(stored));
    return fromStorage(info, version, stored);
  }

  /**
   * A read-only view for responses: built-ins served in one version need no conversion, so the
   * stored object itself is returned (stored objects are never mutated); callers that change it
   * must clone first.
   */
  view(info: ResourceInfo, version: ResourceVersionInfo, stored: KubeObject): KubeObject {
    if (!info.custom && !info.sharedStorage && !info.convert) return stored;
    return this.present(info, version, stored);
  }

  selectors(scope: RequestScope): { label?: LabelSelector; field?: (o: KubeObject) => boolean } {
    const ls = scope.query.get("labelSelector");
    const fs = scope.query.get("fieldSelector");
    return {
      ...(ls ? { label: parseLabelSelector(ls) } : {}),
      ...(fs ? { field: fieldMatcher(parseFieldSelector(fs), scope.info) } : {}),
    };
  }

  /** The stored objects a list or watch selects (namespace + selectors). */
  matcher(scope: RequestScope): (o: KubeObject) => boolean {
    const { label, field } = this.selectors(scope);
    const ns = scope.info.namespaced ? scope.namespace : undefined;
    return (o) =>
      (ns === undefined || o.metadata?.namespace === ns) &&
      (!label || label.matches(o.metadata?.labels)) &&
      (!field || field(o));
  }

  list(scope: RequestScope): KubeObject {
    const current = this.store.currentRV();
    checkListOptions(scope.query, current);
    const match = this.matcher(scope);
    const ns = scope.info.namespaced ? scope.namespace : undefined;
    const page = paginate(
      this.store.list(this.bucket(scope.info), ns).filter(match),
      scope.query,
      current,
    );
    return {
      apiVersion: groupVersion(scope.info.group, scope.version.name),
      kind: scope.info.listKind,
      metadata: page.metadata,
      items: page.items.map((o) => this.view(scope.info, scope.version, o)),
    };
  }

  // ---------------------------------------------------------------- create

  create(
    scope: RequestScope,
    body: KubeObject,
    opts: { managedFields?: ManagedFieldsEntry[] } = {},
  ): WriteResult {
    const info = scope.info;
    if (info.terminating) {
      throw new ApiError(
        405,
        "MethodNotAllowed",
        "create not allowed while custom resource definition is terminating",
      );
    }
    const dryRun = isDryRun(scope.query);
    const obj = deepClone(body);
    checkTypeAndNamespace(scope, obj, "create");
    const m = meta(obj);
    if (!m.name && m.generateName) m.name = generateName(m.generateName);
    admitNamespace(this.store, scope, m.name ?? "");
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
    if (version.status && scope.subresource !== "status" && !strategyFor(info).statusOnCreate) {
      delete obj.status;
    }
    // Before admission, as kube fills the system fields before validation (a Job's generated
    // selector names its uid).
    m.uid = newUid();
    admit(this.hooks, scope, obj, undefined);
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
      if (m.generateName && !body.metadata?.name) {
        // Upstream retries generated names on conflict; one retry with a new suffix suffices here.
        m.name = generateName(m.generateName);
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
    const stored = this.toStorage(info, obj);
    if (dryRun) {
      return { code: 201, body: this.present(info, version, stored) };
    }
    const rv = this.store.nextRV();
    meta(stored).resourceVersion = String(rv);
    this.store.commit(this.bucket(info), "ADDED", stored, rv);
    return { code: 201, body: this.present(info, version, stored) };
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
  update(
    scope: RequestScope,
    body: KubeObject,
    opts: { patch?: boolean; managedFields?: ManagedFieldsEntry[] } = {},
  ): WriteResult {
    const info = scope.info;
    const version = scope.version;
    const dryRun = isDryRun(scope.query);
    const oldStored = this.existing(scope);
    const old = this.present(info, version, oldStored);
    let obj = deepClone(body);
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

    if (scope.subresource === "status") {
      const next = deepClone(old);
      next.status = obj.status;
      if (next.status === undefined) delete next.status;
      meta(next).managedFields = m.managedFields ?? om.managedFields;
      obj = next;
    } else if (scope.subresource === "binding") {
      // rest/binding.ts derived the object from the stored one: node and condition together.
    } else if (version.status) {
      if (old.status === undefined) delete obj.status;
      else obj.status = deepClone(old.status);
    }
    const strategy = strategyFor(info);
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

    admit(this.hooks, scope, obj, old);
    if (
      info.generation &&
      !deepEqual(
        generationRelevant(info, version, obj),
        generationRelevant(info, version, info.convert ? oldStored : old),
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

    const stored = this.toStorage(info, obj);
    // Compare against the stored form (other versions' defaults must not count as changes).
    const unchanged = deepEqual(
      stripVolatile(stored),
      stripVolatile(this.toStorage(info, deepClone(oldStored))),
    );
    const finalizersGone =
      !!nm.deletionTimestamp &&
      (nm.finalizers ?? []).length === 0 &&
      (strategy.pendingFinalizers?.(obj) ?? []).length === 0;
    if (unchanged && !finalizersGone) {
      return { code: 200, body: this.present(info, version, oldStored) };
    }
    if (finalizersGone) {
      if (dryRun) return { code: 200, body: this.present(info, version, stored) };
      const drv = this.store.nextRV();
      nm.resourceVersion = String(drv);
      this.store.commit(this.bucket(info), "DELETED", stored, drv, oldStored);
      return { code: 200, body: this.present(info, version, stored) };
    }
    if (dryRun) return { code: 200, body: this.present(info, version, stored) };
    const nrv = this.store.nextRV();
    nm.resourceVersion = String(nrv);
    this.store.commit(this.bucket(info), "MODIFIED", stored, nrv, oldStored);
    return { code: 200, body: this.present(info, version, stored) };
  }

  /** PUT namespaces/<n>/finalize: sets spec.finalizers; an emptied terminating namespace goes. */
  finalizeNamespace(scope: RequestScope, next: KubeObject): WriteResult {
    return this.update({ ...scope, subresource: "finalize" }, next);
  }

  // ---------------------------------------------------------------- delete

  delete(scope: RequestScope, opts: DeleteOptions): WriteResult {
    const info = scope.info;
    validateDeleteOptions(opts);
    const dryRun = isDryRun(scope.query, opts);
    const stored = this.existing(scope);
    const sm = stored.metadata ?? {};
    const forbidden = strategyFor(info).deleteForbidden?.(stored);
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
    return this.deleteStored(info, scope.version, stored, opts, dryRun);
  }

  /** The deletion flow of store.go Delete, for one stored object. */
  deleteStored(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    stored: KubeObject,
    opts: DeleteOptions,
    dryRun = false,
  ): WriteResult {
    const next = deepClone(stored);
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
    const strategy = strategyFor(info);
    const pending = strategy.pendingFinalizers?.(next) ?? [];
    const graceful = strategy.gracePeriodSeconds?.(next, opts.gracePeriodSeconds) ?? 0;
    if (finalizers.length > 0 || pending.length > 0 || graceful) {
      const first = !sm.deletionTimestamp;
      const changedFinalizers = !deepEqual(finalizers, sm.finalizers ?? []);
      if (!first && !changedFinalizers) {
        return { code: 200, body: this.present(info, version, stored) };
      }
      if (finalizers.length > 0) nm.finalizers = finalizers;
      else delete nm.finalizers;
      if (first) {
        nm.deletionTimestamp = graceful ? nowTime(Date.now() + graceful * 1000) : nowTime();
        nm.deletionGracePeriodSeconds = graceful || 0;
        if (info.generation && nm.generation !== undefined) nm.generation += 1;
        strategy.beginDeletion?.(next);
      }
      if (dryRun) return { code: 200, body: this.present(info, version, next) };
      const rv = this.store.nextRV();
      nm.resourceVersion = String(rv);
      this.store.commit(this.bucket(info), "MODIFIED", next, rv, stored);
      return {
        code: opts.orphanDependents === false ? 202 : 200,
        body: this.present(info, version, next),
      };
    }
    if (dryRun) return { code: 200, body: this.deleteResponse(info, version, next) };
    const rv = this.store.nextRV();
    nm.resourceVersion = String(rv);
    this.store.commit(this.bucket(info), "DELETED", next, rv, stored);
    return { code: 200, body: this.deleteResponse(info, version, next) };
  }

  private deleteResponse(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    obj: KubeObject,
  ): KubeObject {
    if (info.returnDeletedObject) return this.present(info, version, obj);
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
    validateDeleteOptions(opts);
    const dryRun = isDryRun(scope.query, opts);
    const match = this.matcher(scope);
    const ns = scope.info.namespaced ? scope.namespace : undefined;
    const items = this.store.list(this.bucket(scope.info), ns).filter(match);
    const deleted: KubeObject[] = [];
    for (const o of items) {
      const r = this.deleteStored(scope.info, scope.version, o, opts, dryRun);
      deleted.push(r.body.kind === "Status" ? this.present(scope.info, scope.version, o) : r.body);
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

  // ---------------------------------------------------------------- scale

  getScale(scope: RequestScope): KubeObject {
    return toScale(scope.version, this.get(scope));
  }

  /** Writes a Scale back onto its object: only the spec replicas path changes. */
  updateScale(scope: RequestScope, scaleObj: KubeObject): WriteResult {
    const current = this.get(scope);
    const rv = (scaleObj.metadata as ObjectMeta | undefined)?.resourceVersion;
    const next = applyScale(scope.version, scope.name ?? "", current, scaleObj);
    if (rv && rv !== current.metadata?.resourceVersion) {
      throw errors.optimisticLock(gr(scope.info), scope.name ?? "");
    }
    const r = this.update({ ...scope, subresource: undefined }, next, { patch: true });
    return { code: r.code, body: toScale(scope.version, r.body) };
  }
}

function stripVolatile(o: KubeObject): KubeObject {
  const c = { ...o, metadata: { ...(o.metadata ?? {}) } };
  delete c.metadata.resourceVersion;
  delete c.metadata.managedFields;
  return c;
}
