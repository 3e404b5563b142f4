/**
 * Event handlers map a watched object's events to reconcile requests (controller-runtime's
 * pkg/handler): the object itself (`For`), its controller owner (`Owns`), or anything a map
 * function returns (`Watches`).
 */
import { type Kind, parseApiVersion } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import type { Request } from "../reconcile/reconcile.js";

/** Maps one object to the requests it should trigger. */
export type MapFunc<T extends KubeObject = KubeObject> = (obj: T) => Request[];

/** Enqueues the object's own key. */
export function enqueueForObject<T extends KubeObject>(): MapFunc<T> {
  return (obj) => {
    const name = obj.metadata?.name;
    return name ? [{ namespace: obj.metadata?.namespace, name }] : [];
  };
}

/**
 * Enqueues the owner of kind `owner` named in the object's ownerReferences: only the controller
 * reference unless `onlyController` is false. Group is compared without version, as an owner may
 * be stored at another version than the one watched.
 */
export function enqueueForOwner<T extends KubeObject>(
  owner: Kind,
  opts: { onlyController?: boolean } = {},
): MapFunc<T> {
  const onlyController = opts.onlyController ?? true;
  return (obj) => {
    const out: Request[] = [];
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      if (onlyController && !ref.controller) continue;
      if (ref.kind !== owner.kind || parseApiVersion(ref.apiVersion).group !== owner.group)
        continue;
      // Owners live in the dependent's namespace (or are cluster-scoped).
      out.push({
        namespace: owner.namespaced ? obj.metadata?.namespace : undefined,
        name: ref.name,
      });
    }
    return out;
  };
}
