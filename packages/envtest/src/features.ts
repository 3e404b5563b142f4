/**
 * The optional controllers beyond envtest, switched on per environment: garbage collection with
 * the namespace controller, and simulation of the node (scheduler, kubelet) and of the workload
 * controllers. RBAC authorization is the server's `auth` option (server.ts).
 */

import { GarbageCollector } from "./controllers/garbage-collector.js";
import { Simulator } from "./controllers/simulator.js";
import { WorkloadControllers } from "./controllers/workloads.js";
import type { ApiServer } from "./server.js";

export interface FeatureOptions {
  gc: boolean;
  simulate: boolean;
}

export interface Features {
  gc?: GarbageCollector;
}

export function installFeatures(server: ApiServer, opts: FeatureOptions): Features {
  const features: Features = {};
  if (opts.gc) {
    features.gc = new GarbageCollector(server.store, server.registry, server.client);
    server.controllers.push(features.gc);
  }
  if (opts.simulate) {
    Simulator.registerNode(server.client);
    server.controllers.push(
      new Simulator(server.store, server.client, server.kube.info.gitVersion),
    );
    server.controllers.push(new WorkloadControllers(server.store, server.client));
  }
  return features;
}
