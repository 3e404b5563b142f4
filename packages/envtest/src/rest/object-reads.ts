/**
 * The reads of stored objects (get, list, presenting a stored object in the requested version)
 * and what every verb shares: the store, the admission chain and the webhook driver. The writes
 * build on it (object-deletes.ts, objects.ts).
 */
import {
  type LabelSelector,
  parseFieldSelector,
  parseLabelSelector,
} from "@opgen/apimachinery/selectors";
import { errors } from "@opgen/apimachinery/status";
import { AdmissionChain } from "../admission/chain.js";
import { bucketOf } from "../api/registry.js";
import {
  deepClone,
  gr,
  groupVersion,
  type KubeObject,
  type ResourceInfo,
  type ResourceVersionInfo,
} from "../api/types.js";
import type { Store } from "../store/store.js";
import { fieldMatcher } from "./field-selectors.js";
import { checkGetOptions, checkListOptions, paginate } from "./list-options.js";
import { fromConverted, fromStorage } from "./schema-pipeline.js";
import type { RequestScope } from "./scope.js";
import { runAsync, runSync, type Steps, type WriteDriver } from "./write-steps.js";

export class ObjectReads {
  /** The admission plugins in kube's order (set by the server, admission/plugins/index.ts). */
  admission = new AdmissionChain();
  /** What a request's write awaits: webhooks, policies, conversion (set by the server). */
  driver?: WriteDriver;

  constructor(protected readonly store: Store) {}

  protected bucket(info: ResourceInfo): string {
    return bucketOf(info);
  }

  protected existing(scope: RequestScope): KubeObject {
    const found = this.store.get(this.bucket(scope.info), scope.namespace, scope.name ?? "");
    if (!found) throw errors.notFound(gr(scope.info), scope.name ?? "");
    return found;
  }

  // ---------------------------------------------------------------- reads

  /** The object in the requested version (read-only, see view()). */
  get(scope: RequestScope): KubeObject {
    return runSync(this.getSteps(scope));
  }

  /** get() for a request: a webhook-converted custom resource is converted by its webhook. */
  getAsync(scope: RequestScope): Promise<KubeObject> {
    return runAsync(this.getSteps(scope), this.driver);
  }

  protected *getSteps(scope: RequestScope): Steps<KubeObject> {
    checkGetOptions(scope.query, this.store.currentRV());
    const stored = this.existing(scope);
    if (!needsWebhook(scope.info, scope.version, stored))
      return this.view(scope.info, scope.version, stored);
    return yield* this.presentSteps(scope.info, scope.version, stored);
  }

  /** present() that converts through the CRD's conversion webhook when the version differs. */
  *presentSteps(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    stored: KubeObject,
  ): Steps<KubeObject> {
    if (!needsWebhook(info, version, stored)) return this.present(info, version, stored);
    const [converted] = (yield { step: "convert", info, objects: [stored], version }) as [
      KubeObject,
    ];
    return fromConverted(info, version, converted);
  }

  /** A write's result: a read-only view when the caller only serializes it, else a copy. */
  *resultSteps(scope: RequestScope, stored: KubeObject): Steps<KubeObject> {
    const { info, version } = scope;
    if (scope.readOnlyResult && !needsWebhook(info, version, stored))
      return this.view(info, version, stored);
    return yield* this.presentSteps(info, version, stored);
  }

  /** presentAllSteps() for a request (a watch of a webhook-converted resource). */
  presentAllAsync(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    stored: KubeObject[],
  ): Promise<KubeObject[]> {
    return runAsync(this.presentAllSteps(info, version, stored), this.driver);
  }

  /** Converts many stored objects with one webhook call (a list, a deletecollection). */
  *presentAllSteps(
    info: ResourceInfo,
    version: ResourceVersionInfo,
    stored: KubeObject[],
  ): Steps<KubeObject[]> {
    const foreign = stored.filter((o) => needsWebhook(info, version, o));
    if (foreign.length === 0) return stored.map((o) => this.view(info, version, o));
    const converted = (yield { step: "convert", info, objects: foreign, version }) as KubeObject[];
    let i = 0;
    return stored.map((o) =>
      needsWebhook(info, version, o)
        ? fromConverted(info, version, converted[i++]!)
        : this.view(info, version, o),
    );
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
    return runSync(this.listSteps(scope));
  }

  listAsync(scope: RequestScope): Promise<KubeObject> {
    return runAsync(this.listSteps(scope), this.driver);
  }

  private *listSteps(scope: RequestScope): Steps<KubeObject> {
    const current = this.store.currentRV();
    checkListOptions(scope.query, current);
    const match = this.matcher(scope);
    const ns = scope.info.namespaced ? scope.namespace : undefined;
    const page = paginate(
      this.store.list(this.bucket(scope.info), ns).filter(match),
      scope.query,
      current,
      Boolean(scope.query.get("labelSelector") || scope.query.get("fieldSelector")),
    );
    return {
      apiVersion: groupVersion(scope.info.group, scope.version.name),
      kind: scope.info.listKind,
      metadata: page.metadata,
      items: yield* this.presentAllSteps(scope.info, scope.version, page.items),
    };
  }
}

/** A custom resource converted by its CRD's webhook, in another version than wanted. */
export function needsWebhook(
  info: ResourceInfo,
  version: ResourceVersionInfo,
  o: KubeObject,
): boolean {
  return (
    info.conversionWebhook !== undefined && o.apiVersion !== groupVersion(info.group, version.name)
  );
}
