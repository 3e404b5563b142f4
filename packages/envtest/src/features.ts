/**
 * The optional behaviours beyond envtest, switched on per environment: garbage collection with
 * the namespace controller, simulation of the node (scheduler, kubelet) and of the workload
 * controllers, RBAC authorization. Access and authentication reviews are always answered
 * (everything is allowed when RBAC is off).
 */

import { storageVersion } from "./api/types.js";
import { RbacAuthorizer } from "./auth/rbac.js";
import { selfSubjectReview, tokenReview } from "./auth/reviews.js";
import { GarbageCollector } from "./controllers/garbage-collector.js";
import { Simulator } from "./controllers/simulator.js";
import { WorkloadControllers } from "./controllers/workloads.js";
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
          server.systemCreate(group, version, resource, obj),
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
  }
  server.virtualCreate = (scope, body) => {
    if (scope.group === "authentication.k8s.io") {
      if (scope.resource === "selfsubjectreviews") return selfSubjectReview(scope.user);
      if (scope.resource === "tokenreviews") return tokenReview(server.auth, body);
      return undefined;
    }
    if (scope.group !== "authorization.k8s.io") return undefined;
    if (opts.auth === "rbac") return authorizer.review(scope.resource, scope.user, body);
    // Without RBAC everyone may do everything, as the admin may.
    return authorizer.review(
      scope.resource,
      { name: scope.user.name, groups: ["system:masters"] },
      body,
    );
  };
  return features;
}
