/**
 * The optional behaviours beyond envtest, switched on per environment: garbage collection with
 * the namespace controller, simulation of the node (scheduler, kubelet) and of the workload
 * controllers, RBAC authorization. Access and authentication reviews are always answered
 * (everything is allowed when RBAC is off).
 */

import { errors } from "@opgen/apimachinery/status";
import { type KubeObject, storageVersion } from "./api/types.js";
import { RbacAuthorizer } from "./auth/rbac.js";
import { RbacEscalationCheck } from "./auth/rbac-escalation.js";
import { selfSubjectReview, tokenReview } from "./auth/reviews.js";
import { GarbageCollector } from "./controllers/garbage-collector.js";
import { Simulator } from "./controllers/simulator.js";
import { WorkloadControllers } from "./controllers/workloads.js";
import { bindPod } from "./rest/binding.js";
import type { ApiServer } from "./server.js";

export interface FeatureOptions {
  gc: boolean;
  simulate: boolean;
  auth: "none" | "rbac";
}

export interface Features {
  gc?: GarbageCollector;
  rbac?: RbacAuthorizer;
}

export function installFeatures(server: ApiServer, opts: FeatureOptions): Features {
  const features: Features = {};
  if (opts.gc) {
    features.gc = new GarbageCollector(server.store, server.registry, server.rest);
    server.controllers.push(features.gc);
  }
  if (opts.simulate) {
    server.systemCreate("", "v1", "nodes", Simulator.node());
    server.controllers.push(new Simulator(server.store));
    server.controllers.push(
      new WorkloadControllers(server.store, {
        create: (group, version, resource, obj) =>
          server.systemCreate(group, version, resource, obj, "kube-controller-manager"),
        createAs: (controller, group, version, resource, obj) =>
          server.systemCreateAs(controller, group, version, resource, obj),
        delete: (group, resource, obj) => {
          const info = server.registry.get(group, resource);
          if (info) server.rest.deleteStored(info, storageVersion(info), obj, {});
        },
      }),
    );
  }
  const authorizer = new RbacAuthorizer(server.store);
  if (opts.auth === "rbac") {
    features.rbac = authorizer;
    server.authorize = (a) => authorizer.authorize(a);
    server.checkAccess = server.authorize;
    server.rest.hooks.push(
      new RbacEscalationCheck(authorizer, (user, message) => server.forbade?.(user, message)),
    );
  }
  server.virtualCreate = (scope, body) => {
    const created = (b: KubeObject | undefined) => (b ? { code: 201, body: b } : undefined);
    if (scope.group === "" && scope.resource === "bindings")
      return bindPod(server.rest, server.registry, scope, body);
    if (scope.group === "authentication.k8s.io") {
      if (scope.resource === "selfsubjectreviews") return created(selfSubjectReview(scope.user));
      if (scope.resource === "tokenreviews") return created(tokenReview(server.auth, body));
      return undefined;
    }
    if (scope.group !== "authorization.k8s.io") return undefined;
    if (scope.resource === "localsubjectaccessreviews") {
      const spec = (body.spec ?? {}) as {
        resourceAttributes?: { namespace?: string };
        nonResourceAttributes?: unknown;
      };
      const ra = spec.resourceAttributes;
      if (spec.nonResourceAttributes !== undefined || !ra)
        throw errors.invalid("LocalSubjectAccessReview", "authorization.k8s.io", "", [
          spec.nonResourceAttributes !== undefined
            ? {
                type: "FieldValueInvalid",
                field: "spec.nonResourceAttributes",
                value: spec.nonResourceAttributes,
                detail: "disallowed on this kind of request",
              }
            : {
                type: "FieldValueRequired",
                field: "spec.resourceAttributes",
                detail:
                  "exactly one of nonResourceAttributes or resourceAttributes must be specified",
              },
        ]);
      if (ra.namespace !== scope.namespace)
        throw errors.badRequest(
          `spec.resourceAttributes.namespace must match namespace: ${scope.namespace}`,
        );
      body = { ...body, metadata: { ...(body.metadata ?? {}), namespace: scope.namespace! } };
    }
    // Without RBAC everyone may do everything (kube's AlwaysAllow), as the admin may.
    const rbac = opts.auth === "rbac";
    const caller = rbac ? scope.user : { name: scope.user.name, groups: ["system:masters"] };
    return created(authorizer.review(scope.resource, caller, body, !rbac));
  };
  return features;
}
