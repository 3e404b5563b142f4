/**
 * The API client of what envtest runs inside the server: kube-controller-manager's controllers,
 * the scheduler and kubelet of `simulate`, and kube-apiserver's own loopback writers. A write goes
 * through the REST verbs exactly as an HTTP request's does after the handler decoded it: admission
 * plugins, mutating and validating webhooks, ValidatingAdmissionPolicies, defaulting, validation,
 * managedFields under the writer's field manager, resourceVersion preconditions (a stale one is a
 * 409 Conflict), a lost race retried as kube's GuaranteedUpdate does, and the watch events.
 *
 * What it does not pass is the HTTP front: authentication (the writer is known) and the
 * authorization filter. kube authorizes these writers through its bootstrap roles
 * (`system:controller:*`, `system:kube-scheduler`, the Node authorizer, `system:masters` for the
 * loopback client), which grant each exactly what it writes; envtest does not carry the controller
 * roles, so it trusts its own components instead of refusing them. Checks inside admission that
 * consult the authorizer (RBAC escalation, CSR signing, a policy's `authorizer`) still see who
 * writes.
 *
 * Results are the stored objects themselves (read-only: clone before changing one).
 */
import { errors } from "@opgen/apimachinery/status";
import type { Registry } from "../api/registry.js";
import { subresourcesOf } from "../api/subresources.js";
import {
  deepClone,
  deepEqual,
  isObject,
  type JsonObject,
  type KubeObject,
  type ResourceInfo,
  storageVersion,
} from "../api/types.js";
import { serverSideApply } from "../rest/apply.js";
import type { DeleteOptions } from "../rest/delete-options.js";
import type { ObjectRest } from "../rest/objects.js";
import { type PatchType, patchObject } from "../rest/patch.js";
import type { RequestScope } from "../rest/scope.js";
import { retryConcurrent, type WriteResult } from "../rest/write-steps.js";
import type { Identity } from "./identities.js";

/** A resource as a URL names it. */
export interface Resource {
  group: string;
  version: string;
  resource: string;
}

/** An object's place: its namespace (none for cluster-scoped ones) and name. */
export interface ObjectKey {
  namespace?: string | undefined;
  name: string;
}

/** The server's pieces a client writes through. */
export interface ClientDeps {
  registry: Registry;
  rest: ObjectRest;
}

/** A resource in its storage version (what the garbage collector and namespace controller hold). */
export function storageResource(info: ResourceInfo): Resource {
  return { group: info.group, version: storageVersion(info).name, resource: info.resource };
}

export function keyOf(o: KubeObject): ObjectKey {
  return { namespace: o.metadata?.namespace, name: o.metadata?.name ?? "" };
}

/** Per-write options: `fieldManager` as a client sets it explicitly (query and managedFields). */
interface WriteOptions {
  subresource?: string;
  fieldManager?: string;
}

export class ApiClient {
  constructor(
    private readonly deps: ClientDeps,
    readonly identity: Identity,
  ) {}

  private scope(res: Resource, key: Partial<ObjectKey>, opts: WriteOptions = {}): RequestScope {
    const found = this.deps.registry.lookup(res.group, res.version, res.resource);
    if (!found) throw errors.notFoundPath();
    const query = new URLSearchParams();
    if (opts.fieldManager) query.set("fieldManager", opts.fieldManager);
    return {
      info: found.info,
      version: found.version,
      ...(found.info.namespaced && key.namespace ? { namespace: key.namespace } : {}),
      ...(key.name ? { name: key.name } : {}),
      ...(opts.subresource ? { subresource: opts.subresource } : {}),
      query,
      user: this.identity.user,
      manager: opts.fieldManager ?? this.identity.manager,
      warnings: [],
      readOnlyResult: true,
    };
  }

  /** POST: `obj` is copied, never changed. */
  async create(res: Resource, obj: KubeObject): Promise<KubeObject> {
    const scope = this.scope(res, { namespace: obj.metadata?.namespace });
    return (await this.deps.rest.createAsync(scope, deepClone(obj))).body;
  }

  /**
   * create() without awaiting: for the server's own objects before anything can configure a
   * webhook or policy (bootstrap, the environment's install), where it is the same write.
   */
  createSync(res: Resource, obj: KubeObject): KubeObject {
    return this.deps.rest.create(this.scope(res, { namespace: obj.metadata?.namespace }), obj).body;
  }

  /**
   * PUT `obj` (to `subresource` when given): a resourceVersion in it must still be current, or the
   * write is a 409 Conflict.
   */
  async update(res: Resource, obj: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const scope = this.scope(res, keyOf(obj), opts);
    return (await retryConcurrent(() => this.deps.rest.updateAsync(scope, obj))).body;
  }

  updateStatus(res: Resource, obj: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    return this.update(res, obj, { ...opts, subresource: "status" });
  }

  /**
   * A read-modify-write of `current` (as stored): `mutate` changes a copy, which is written with
   * `current`'s resourceVersion unless nothing changed. Returns what is stored.
   */
  async change(
    res: Resource,
    current: KubeObject,
    mutate: (copy: KubeObject) => void,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const next = deepClone(current);
    mutate(next);
    if (deepEqual(next, current)) return current;
    return this.update(res, next, opts);
  }

  /**
   * A status report on `current` (as stored): `mutate` changes a copy of its status (or returns
   * a new one), written through `<resource>/status` with `current`'s resourceVersion unless it is
   * unchanged. Nothing but the status is copied: what controllers report most often stays cheap.
   */
  async changeStatus(
    res: Resource,
    current: KubeObject,
    mutate: (status: JsonObject) => JsonObject | undefined,
  ): Promise<KubeObject> {
    const before = isObject(current.status) ? current.status : {};
    const copy = deepClone(before);
    const status = mutate(copy) ?? copy;
    if (deepEqual(status, before)) return current;
    // The status subresource takes only the body's status (rest/objects.ts copies it).
    return this.update(res, { ...current, status }, { subresource: "status" });
  }

  /** PATCH with a JSON, merge or strategic merge patch document. */
  async patch(
    res: Resource,
    key: ObjectKey,
    type: PatchType,
    patch: unknown,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const scope = this.scope(res, key, opts);
    const raw = JSON.stringify(patch);
    return (await retryConcurrent(() => patchObject(this.deps.rest, scope, type, raw))).body;
  }

  /** Server-side apply of `obj` under `fieldManager` (required for apply, as kube requires it). */
  async apply(
    res: Resource,
    obj: KubeObject,
    opts: { fieldManager: string; force?: boolean; subresource?: string },
  ): Promise<KubeObject> {
    const scope = this.scope(res, keyOf(obj), opts);
    if (opts.force) scope.query.set("force", "true");
    const raw = JSON.stringify(obj);
    const force = opts.force ?? false;
    return (await retryConcurrent(() => serverSideApply(this.deps.rest, scope, raw, force))).body;
  }

  /** DELETE with `opts` (preconditions, propagation, grace period). */
  async delete(res: Resource, key: ObjectKey, opts: DeleteOptions = {}): Promise<WriteResult> {
    const scope = this.scope(res, key);
    return retryConcurrent(() => this.deps.rest.deleteAsync(scope, opts));
  }

  /**
   * POST to a subresource (`pods/binding`, `pods/eviction`): admission sees the subresource's own
   * kind, then the server answers it, as for a request.
   */
  async createSubresource(
    res: Resource,
    key: ObjectKey,
    subresource: string,
    body: KubeObject,
  ): Promise<WriteResult> {
    const scope = this.scope(res, key, { subresource });
    // The resource's own handler answers, as for a request (api/resource.ts SubresourceHandler).
    const create = scope.info.subresources?.[subresource]?.create;
    if (!create) throw errors.notFoundPath();
    const d = subresourcesOf(scope.info, scope.version).find((s) => s.name === subresource);
    if (!d) throw errors.notFoundPath();
    const kind = {
      group: d.group ?? scope.info.group,
      version: d.version ?? scope.version.name,
      kind: d.kind ?? scope.info.kind,
    };
    const admitted = await this.deps.rest.admitSubresourceCreate(scope, deepClone(body), kind);
    return create(scope, admitted);
  }
}

/** Makes the clients of the server's components, one per identity. */
export class InternalClient {
  constructor(private readonly deps: ClientDeps) {}

  as(identity: Identity): ApiClient {
    return new ApiClient(this.deps, identity);
  }
}
