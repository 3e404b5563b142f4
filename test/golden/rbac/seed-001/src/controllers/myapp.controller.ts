import {
  type Client,
  kinds,
  type Manager,
  type Reconciler,
  type Request,
  type Result,
} from "@opgen/runtime";
import { MyAppKind } from "../api/v1/myapp.types.js";

/**
 * MyAppReconciler reconciles a MyApp object: the markers of seed 001's Go reconciler, as opgen tags.
 *
 * @rbac groups=example.com,resources=myapps,verbs=get;list;watch;create;update;patch;delete
 * @rbac groups=example.com,resources=myapps/status,verbs=get;update;patch
 * @rbac groups=example.com,resources=myapps/finalizers,verbs=update
 * @rbac groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
 * @rbac groups=core,resources=services,verbs=get;list;watch;create;update;patch;delete
 * @rbac groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch;delete
 * @rbac groups=core,resources=events,verbs=create;patch
 */
export class MyAppReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request): Promise<Result> {
    await this.client.get(MyAppKind, req);
    return {};
  }
}

/** SetupWithManager's counterpart: For(MyApp), Owns(Deployment, Service, HorizontalPodAutoscaler). */
export function setupMyAppController(mgr: Manager): void {
  mgr
    .controller(MyAppKind)
    .owns(kinds.Deployment)
    .owns(kinds.Service)
    .owns(kinds.HorizontalPodAutoscaler)
    .complete(new MyAppReconciler(mgr.client));
}
