/**
 * `@opgen/runtime/cache`: the informer machinery under the manager's cache, for code that needs it
 * directly (a custom source, a standalone informer): list+watch with bookmarks and 410 relists
 * (`Watcher`), the shared informer and its indexed store, the cache itself and the error it
 * refuses reads outside its scope with.
 */
export {
  type ByObjectOptions,
  byObject,
  Cache,
  type CacheListOptions,
  type CacheOptions,
  type InformerSelector,
} from "./cache.js";
export { type ResourceEventHandler, SharedInformer } from "./informer.js";
export {
  type CacheScope,
  isResourceNotCached,
  type NotCachedReason,
  ResourceNotCachedError,
} from "./scope.js";
export type { IndexFunc } from "./store.js";
export { type ListerWatcher, type ListPage, Watcher, type WatcherEvent } from "./watcher.js";
