/**
 * The optional behaviours beyond envtest, switched on per environment: garbage collection and
 * namespace cleanup, kubelet/controller simulation, RBAC authorization.
 */
import type { ApiServer } from "./server.js";

export interface FeatureOptions {
  gc: boolean;
  simulate: boolean;
  auth: "none" | "rbac";
}

export function installFeatures(server: ApiServer, opts: FeatureOptions): void {
  void server;
  void opts;
}
