import type { V1Pod } from "@kubernetes/client-node";
import {
  type Client,
  ignoreNotFound,
  kinds,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  setControllerReference,
} from "@opgen/runtime";
import { type AppCluster, AppClusterKind } from "../api/v1/appcluster.types.js";

/**
 * AppClusterReconciler keeps `spec.size` pods running for each AppCluster.
 *
 * @rbac groups=demo.my.domain,resources=appclusters,verbs=get;list;watch;create;update;patch;delete
 * @rbac groups=demo.my.domain,resources=appclusters/status,verbs=get;update;patch
 * @rbac groups=demo.my.domain,resources=appclusters/finalizers,verbs=update
 * @rbac groups=core;events.k8s.io,resources=events,verbs=create;patch
 * @rbac groups=core,resources=pods,verbs=get;list;watch;create;update;patch;delete
 */
export class AppClusterReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    // 1. Get the AppCluster; a deleted one needs nothing (its pods are garbage-collected).
    const cluster = await this.client.get(AppClusterKind, req).catch(ignoreNotFound);
    if (!cluster) {
      ctx.log.info("AppCluster not found; it must have been deleted");
      return {};
    }
    const name = cluster.metadata!.name!;
    const size = cluster.spec.size ?? 0;

    // 2. Observe: the pods this AppCluster manages, from the informer cache.
    const pods = await this.client.list(kinds.Pod, {
      namespace: req.namespace,
      labelSelector: { app: name },
    });
    const live = pods.filter((p) => !p.metadata?.deletionTimestamp);

    // 3. Diff & act: one pod per pass, then requeue, as the tutorial does.
    if (live.length < size) {
      ctx.log.info("fewer pods than spec.size: creating one", { have: live.length, want: size });
      const pod = newPodFor(cluster);
      setControllerReference(cluster, pod);
      await this.client.create(pod);
      return { requeue: true };
    }
    if (live.length > size) {
      ctx.log.info("more pods than spec.size: deleting one", { have: live.length, want: size });
      // The cache may still show a pod deleted a moment ago: gone is what we wanted.
      await this.client.delete(live[0]!).catch(ignoreNotFound);
      return { requeue: true };
    }

    // 4. Update status only when it changed.
    if (cluster.status?.ready !== live.length) {
      cluster.status = { ...cluster.status, ready: live.length };
      ctx.log.info("updating status", { ready: live.length });
      await this.client.status().update(cluster);
    }
    return {};
  }
}

function newPodFor(cluster: AppCluster): V1Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: `${cluster.metadata!.name}-pod-`,
      namespace: cluster.metadata!.namespace,
      labels: { app: cluster.metadata!.name! },
    },
    spec: { containers: [{ name: "nginx", image: "nginx:latest" }] },
  };
}

/** Reconcile on AppCluster events and on events of the pods they own (self-healing). */
export function setupAppClusterController(mgr: Manager): void {
  mgr.controller(AppClusterKind).owns(kinds.Pod).complete(new AppClusterReconciler(mgr.client));
}
