/**
 * The apiextensions.k8s.io group (apiextensions-apiserver's registry): CustomResourceDefinitions,
 * which keep a generation and must be replaced naming their resourceVersion. The resources a CRD
 * defines are registry/custom/'s.
 */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { customResourceDefinitions } from "./custom-resource-definitions.js";

export const apiextensions: GroupDefinitions = {
  group: "apiextensions.k8s.io",
  resources: (): ResourceDefinition[] => [
    {
      resource: "customresourcedefinitions",
      strategy: customResourceDefinitions,
      generation: true,
      conditionalUpdate: true,
    },
  ],
};
