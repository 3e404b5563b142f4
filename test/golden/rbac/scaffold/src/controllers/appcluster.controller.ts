import {
  type Client,
  ignoreNotFound,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  setStatusCondition,
} from "@opgen/runtime";
import { AppClusterKind } from "../api/v1/appcluster.types.js";

/**
 * AppClusterReconciler reconciles AppCluster objects.
 *
 * @rbac groups=demo.my.domain,resources=appclusters,verbs=get;list;watch;create;update;patch;delete
 * @rbac groups=demo.my.domain,resources=appclusters/status,verbs=get;update;patch
 * @rbac groups=demo.my.domain,resources=appclusters/finalizers,verbs=update
 * @rbac groups=core;events.k8s.io,resources=events,verbs=create;patch
 */
export class AppClusterReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const app = await this.client.get(AppClusterKind, req).catch(ignoreNotFound);
    if (!app) return {};
    ctx.log.info("reconciling", { generation: app.metadata?.generation });
    const conditions = [...(app.status?.conditions ?? [])];
    const changed = setStatusCondition(conditions, {
      type: "Available",
      status: "True",
      reason: "Reconciled",
      message: "AppCluster reconciled",
      observedGeneration: app.metadata?.generation,
    });
    if (changed) {
      app.status = { ...app.status, conditions };
      await this.client.status().update(app);
    }
    return {};
  }
}

export function setupAppClusterController(mgr: Manager): void {
  mgr.controller(AppClusterKind).complete(new AppClusterReconciler(mgr.client));
}
