/**
 * The markers of controller-tools pkg/rbac/testdata/controller.go, written as opgen tags.
 *
 * @rbac groups=batch.io,resources=cronjobs,verbs=get;watch;create
 * @rbac groups=batch.io,resources=cronjobs/status,verbs=get;update;patch
 * @rbac groups=art,resources=jobs,verbs=get
 * @rbac groups=wave,resources=jobs,verbs=get,namespace=zoo
 * @rbac groups=batch;batch;batch,resources=jobs/status,verbs=watch
 * @rbac groups=batch;cron,resources=jobs/status,verbs=create;get
 * @rbac groups=art,resources=jobs,verbs=get,namespace=zoo
 * @rbac groups=cron;batch,resources=jobs/status,verbs=get;create
 * @rbac groups=batch,resources=jobs/status,verbs=watch;watch
 * @rbac groups=art,resources=jobs,verbs=get,namespace=park
 */
import type { Reconciler, Request, Result } from "@opgen/runtime";

/**
 * CronJobReconciler carries most of the markers, as a Kubebuilder reconciler would.
 *
 * @rbac groups=batch.io,resources=cronjobs,resourceNames=foo;bar;baz,verbs=get;watch
 * @rbac groups=deduplicate-verbs,resources=some,verbs=get;list
 * @rbac groups=deduplicate-verbs,resources=some,verbs=get
 * @rbac groups=deduplicate-verbs,resources=some,verbs=list
 * @rbac groups=deduplicate-resources,resources=one,verbs=create
 * @rbac groups=deduplicate-resources,resources=two,verbs=create
 * @rbac groups=deduplicate-resources,resources=three,verbs=create
 * @rbac groups=deduplicate-groups1,resources=foo,verbs=patch
 * @rbac groups=deduplicate-groups2,resources=foo,verbs=patch
 * @rbac groups=deduplicate-groups3,resources=foo,verbs=patch
 * @rbac groups=deduplicate-all,resources=foo;bar,verbs=get;list
 * @rbac groups=deduplicate-all,resources=foo,verbs=get
 * @rbac groups=deduplicate-all,resources=bar,verbs=list
 * @rbac groups=deduplicate-groups4,resources=xyz,verbs=get;update;patch
 * @rbac groups=deduplicate-groups4,resources=xyz,verbs=*
 */
export class CronJobReconciler implements Reconciler {
  async reconcile(_req: Request): Promise<Result> {
    return {};
  }
}

export function helper(): number {
  /**
   * @rbac groups=deduplicate-all-group,resources=foo;bar,verbs=get;list
   * @rbac groups=not-deduplicate-resources,resources=some,verbs=get
   * @rbac groups=not-deduplicate-resources,resources=another,verbs=list
   * @rbac groups=not-deduplicate-groups1,resources=some,verbs=get
   * @rbac groups=not-deduplicate-groups2,resources=some,verbs=list
   * @rbac urls=/url-to-duplicate,verbs=get
   * @rbac urls=/another/url-to-duplicate,verbs=get
   * @rbac groups=core,resources=deduplicate,verbs=list
   */
  return 1;
}

/**
 * @rbac groups="",resources=me,verbs=list
 * @rbac groups=core;"";some-other-to-deduplicate-with-core,resources=me,verbs=list;get
 * @rbac groups=deduplicate-groups5,resources=abc,verbs=get;update;patch;create,namespace=here
 * @rbac groups=deduplicate-groups5,resources=abc,verbs=*,namespace=here
 * @rbac groups=apps,namespace=infrastructure,roleName=infra-deployment-manager,resources=deployments,verbs=get;list;watch;update;patch
 * @rbac groups="",namespace=users,roleName=user-secrets-reader,resources=secrets,verbs=get;list;watch
 * @rbac groups=apps,namespace=infrastructure,roleName=infra-deployment-manager,resources=statefulsets,verbs=get;list
 * @rbac groups=monitoring,namespace=observability,resources=prometheuses,verbs=get;list
 */
