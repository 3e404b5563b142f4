/**
 * The autoscaling group (`pkg/registry/autoscaling`): HorizontalPodAutoscalers, stored as v2 and
 * also served as v1.
 */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { horizontalPodAutoscalers } from "./horizontal-pod-autoscalers.js";
import { convertHorizontalPodAutoscaler } from "./hpa-conversion.js";

export const autoscaling: GroupDefinitions = {
  group: "autoscaling",
  resources: (): ResourceDefinition[] => [
    {
      resource: "horizontalpodautoscalers",
      strategy: horizontalPodAutoscalers,
      generation: true,
      alsoServed: { versions: ["v1"], convert: convertHorizontalPodAutoscaler },
    },
  ],
};
