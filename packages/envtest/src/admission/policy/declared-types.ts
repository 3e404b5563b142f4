/**
 * The types kube declares for a policy's `request` and `namespaceObject` (`apiserver: pkg/
 * admission/plugin/cel/compile.go` BuildRequestType, BuildNamespaceType), as schemas for
 * compileCelTyped: a misspelt field of either is a compile error when the policy is written.
 * `request.options` is dyn (an int-or-string node is how a schema says dyn to the CEL typing).
 */
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";

const string: JSONSchemaProps = { type: "string" };
const strings: JSONSchemaProps = { type: "array", items: string };
const timestamp: JSONSchemaProps = { type: "string", format: "date-time" };
const object = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({
  type: "object",
  properties,
});

const gvk = object({ group: string, version: string, kind: string });
const gvr = object({ group: string, version: string, resource: string });

export const REQUEST_SCHEMA: JSONSchemaProps = object({
  kind: gvk,
  resource: gvr,
  subResource: string,
  requestKind: gvk,
  requestResource: gvr,
  requestSubResource: string,
  name: string,
  namespace: string,
  operation: string,
  userInfo: object({
    username: string,
    uid: string,
    groups: strings,
    extra: { type: "object", additionalProperties: strings },
  }),
  dryRun: { type: "boolean" },
  options: { "x-kubernetes-int-or-string": true },
});

const stringMap: JSONSchemaProps = { type: "object", additionalProperties: string };

export const NAMESPACE_SCHEMA: JSONSchemaProps = object({
  metadata: object({
    name: string,
    generateName: string,
    namespace: string,
    labels: stringMap,
    annotations: stringMap,
    // kube declares it so (the value it binds has `uid`).
    UID: string,
    creationTimestamp: timestamp,
    deletionGracePeriodSeconds: { type: "integer" },
    deletionTimestamp: timestamp,
    generation: { type: "integer" },
    resourceVersion: string,
    finalizers: strings,
  }),
  spec: object({ finalizers: strings }),
  status: object({
    conditions: {
      type: "array",
      items: object({
        status: string,
        type: string,
        lastTransitionTime: timestamp,
        message: string,
        reason: string,
      }),
    },
    phase: string,
  }),
});

/** request and namespaceObject typed as kube types them. */
export const DECLARED = {
  request: { schema: REQUEST_SCHEMA, resource: false, declared: true },
  namespaceObject: { schema: NAMESPACE_SCHEMA, resource: false, declared: true },
} as const;
