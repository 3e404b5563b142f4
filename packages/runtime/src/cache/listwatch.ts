/** The REST ListerWatcher: list and watch calls for one kind, scoped by namespace and selectors. */
import type { Kind } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import type { RestClient, WatchEvent } from "../internal/rest/http.js";
import {
  partialObjectMetadataAccept,
  partialObjectMetadataListAccept,
} from "../internal/rest/media.js";
import { resourcePath } from "../internal/rest/paths.js";
import type { ListerWatcher, ListPage } from "./watcher.js";

export interface ListWatchScope {
  /** Watch one namespace; all namespaces when undefined. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** List and watch PartialObjectMetadata instead of full objects. */
  metadataOnly?: boolean;
}

export function restListerWatcher<T extends KubeObject>(
  rest: RestClient,
  kind: Kind<T>,
  scope: ListWatchScope,
): ListerWatcher<T> {
  const path = resourcePath(kind, scope.namespace);
  const selectors = {
    labelSelector: scope.labelSelector || undefined,
    fieldSelector: scope.fieldSelector || undefined,
  };
  return {
    list: (opts, signal) =>
      rest.request<ListPage<T>>({
        method: "GET",
        path,
        query: { ...selectors, limit: opts.limit, continue: opts.continue },
        signal,
        accept: scope.metadataOnly ? partialObjectMetadataListAccept : undefined,
      }),
    watch: (opts, onEvent: (e: WatchEvent) => void, signal) =>
      rest.watch(
        path,
        {
          ...selectors,
          resourceVersion: opts.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: opts.timeoutSeconds,
        },
        onEvent,
        signal,
        { accept: scope.metadataOnly ? partialObjectMetadataAccept : undefined },
      ),
  };
}
