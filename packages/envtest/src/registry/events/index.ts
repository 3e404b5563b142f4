/**
 * The events.k8s.io group (`pkg/registry/events`): the new-style Event API over the objects
 * core/v1 events store.
 */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { eventsSharedStorage, eventsV1 } from "../core/events.js";

export const events: GroupDefinitions = {
  group: "events.k8s.io",
  resources: (): ResourceDefinition[] => [
    { resource: "events", strategy: eventsV1, sharedStorage: eventsSharedStorage },
  ],
};
