/**
 * The optional controllers beyond envtest, switched on per environment: garbage collection with
 * the namespace controller, and simulation of the node (scheduler, kubelet) and of the workload
 * controllers. RBAC authorization is the server's `auth` option (server.ts). The simulation's
 * modules are loaded only by an environment that asks for it, so a test that never simulates
 * does not pay for them.
 */

import { GarbageCollector } from "./controllers/garbage-collector.js";
import type { ApiServer } from "./server.js";

export interface FeatureOptions {
  gc: boolean;
  simulate: boolean;
}

export interface Features {
  gc?: GarbageCollector;
}

export async function installFeatures(server: ApiServer, opts: FeatureOptions): Promise<Features> {
  const features: Features = {};
  if (opts.gc) {
    features.gc = new GarbageCollector(server.store, server.registry, server.client);
    server.controllers.push(features.gc);
  }
  if (opts.simulate) {
    const [{ Simulator }, { WorkloadControllers }] = await Promise.all([
      import("./controllers/simulator.js"),
      import("./controllers/workloads.js"),
    ]);
    Simulator.registerNode(server.client);
    server.controllers.push(
      new Simulator(server.store, server.client, server.kube.info.gitVersion),
    );
    server.controllers.push(new WorkloadControllers(server.store, server.client));
  }
  return features;
}
