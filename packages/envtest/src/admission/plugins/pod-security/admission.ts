/**
 * The PodSecurity admission plugin of kube-apiserver 1.32
 * (`k8s.io/pod-security-admission/admission`): namespaces' `pod-security.kubernetes.io/*` labels
 * are validated on create and update, and tightening `enforce` warns about the existing pods that
 * would violate it; a pod that violates the enforce level is refused with
 * `violates PodSecurity "<level>:<version>": ...`, and pods and the workloads whose templates make
 * pods get `would violate PodSecurity` warnings at the warn level. Audit annotations need an audit
 * log, which envtest has not: the audit mode is validated and otherwise ignored. Exemptions and
 * defaults are the admission configuration's (`PodSecurityOptions`).
 */
import { errors } from "@opgen/apimachinery/status";
import { bucketKey } from "../../../api/registry.js";
import { isObject, type JsonObject, type KubeObject, objectAt } from "../../../api/types.js";
import type { RequestScope } from "../../../rest/scope.js";
import type { Store } from "../../../store/store.js";
import type { AdmissionPlugin } from "../../chain.js";
import type { PodView } from "./checks.js";
import { forbiddenDetail, forbiddenReason } from "./messages.js";
import { evaluatePod } from "./registry.js";
import {
  compareLevels,
  equivalentPolicies,
  formatLevelVersion,
  fullyPrivileged,
  levelLabel,
  MODES,
  type Policy,
  PRIVILEGED_POLICY,
  parseLevel,
  parseVersion,
  policyFromLabels,
  sameLevelVersion,
  versionLabel,
} from "./versions.js";

/** kube-apiserver's PodSecurityConfiguration (`pod-security.admission.config.k8s.io/v1`). */
export interface PodSecurityOptions {
  /** The policy of namespaces without labels (default: privileged, latest, for every mode). */
  defaults?: {
    enforce?: string;
    "enforce-version"?: string;
    audit?: string;
    "audit-version"?: string;
    warn?: string;
    "warn-version"?: string;
  };
  /** Requests left unchecked: by the requesting user, the pod's runtimeClassName, the namespace. */
  exemptions?: { usernames?: string[]; runtimeClasses?: string[]; namespaces?: string[] };
}

/** The default policy of `options`; an invalid value throws as kube-apiserver refuses to start. */
export function defaultPolicy(options: PodSecurityOptions = {}): Policy {
  const d = options.defaults ?? {};
  const policy = structuredClone(PRIVILEGED_POLICY);
  for (const mode of MODES) {
    const level = d[mode];
    if (level !== undefined) {
      const parsed = parseLevel(level);
      if (parsed.error) throw new Error(`podSecurity.defaults.${mode}: ${parsed.error}`);
      policy[mode].level = parsed.level;
    }
    const version = d[`${mode}-version`];
    if (version !== undefined) {
      const parsed = parseVersion(version);
      if (parsed.error) throw new Error(`podSecurity.defaults.${mode}-version: ${parsed.error}`);
      policy[mode].version = parsed.version;
    }
  }
  return policy;
}

/** Where each workload kind keeps its pod template. */
const TEMPLATES: Record<string, (o: KubeObject) => unknown> = {
  "apps/deployments": (o) => objectAt(o.spec).template,
  "apps/replicasets": (o) => objectAt(o.spec).template,
  "apps/statefulsets": (o) => objectAt(o.spec).template,
  "apps/daemonsets": (o) => objectAt(o.spec).template,
  "batch/jobs": (o) => objectAt(o.spec).template,
  "batch/cronjobs": (o) => objectAt(objectAt(objectAt(o.spec).jobTemplate).spec).template,
  "/replicationcontrollers": (o) => objectAt(o.spec).template,
  "/podtemplates": (o) => o.template,
};

const RESOURCES = new Set([
  "pods",
  "namespaces",
  ...Object.keys(TEMPLATES).map((k) => k.split("/")[1]!),
]);

/** Pod subresources that cannot change what the checks read. */
const IGNORED_POD_SUBRESOURCES = new Set([
  "exec",
  "attach",
  "binding",
  "eviction",
  "log",
  "portforward",
  "proxy",
  "status",
]);

/** How many existing pods a namespace label change evaluates at most. */
const MAX_PODS_TO_CHECK = 3000;

const NAMESPACES = bucketKey("", "namespaces");
const PODS = bucketKey("", "pods");

function podView(metadata: unknown, spec: unknown): PodView {
  const annotations = objectAt(metadata).annotations;
  return {
    annotations: isObject(annotations) ? (annotations as Record<string, string>) : {},
    spec: objectAt(spec),
  };
}

export class PodSecurityAdmission implements AdmissionPlugin {
  readonly name = "PodSecurity";
  private readonly defaults: Policy;
  private readonly exempt: {
    usernames: ReadonlySet<string>;
    runtimeClasses: ReadonlySet<string>;
    namespaces: ReadonlySet<string>;
  };

  constructor(
    private readonly store: Store,
    options: PodSecurityOptions = {},
  ) {
    this.defaults = defaultPolicy(options);
    const e = options.exemptions ?? {};
    this.exempt = {
      usernames: new Set(e.usernames ?? []),
      runtimeClasses: new Set(e.runtimeClasses ?? []),
      namespaces: new Set(e.namespaces ?? []),
    };
  }

  /** A validating plugin, as in kube: it sees the pod after mutating webhooks and validation. */
  validate(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (!RESOURCES.has(scope.info.resource)) return;
    const key = `${scope.info.group}/${scope.info.resource}`;
    if (key === "/namespaces") this.admitNamespace(scope, obj, old);
    else if (key === "/pods") this.admitPod(scope, obj, old);
    else if (TEMPLATES[key]) this.admitWorkload(scope, obj, TEMPLATES[key]);
  }

  private policyOf(namespace: string) {
    const labels = this.store.get(NAMESPACES, undefined, namespace)?.metadata?.labels;
    return policyFromLabels(labels, this.defaults);
  }

  private isExempt(scope: RequestScope): boolean {
    return (
      (!!scope.namespace && this.exempt.namespaces.has(scope.namespace)) ||
      (!!scope.user.name && this.exempt.usernames.has(scope.user.name))
    );
  }

  private exemptRuntimeClass(spec: unknown): boolean {
    const rc = objectAt(spec).runtimeClassName;
    return typeof rc === "string" && rc !== "" && this.exempt.runtimeClasses.has(rc);
  }

  private admitNamespace(scope: RequestScope, ns: KubeObject, old: KubeObject | undefined): void {
    if (scope.subresource !== undefined) return;
    const name = ns.metadata?.name ?? "";
    const next = policyFromLabels(ns.metadata?.labels, this.defaults);
    const refuse = () => errors.invalid("Namespace", "", name, next.errors);
    if (!old) {
      if (next.errors.length) throw refuse();
      this.warnExemptNamespace(scope, name, next.policy, ns);
      return;
    }
    const prev = policyFromLabels(old.metadata?.labels, this.defaults);
    // Labels that were already invalid the same way do not block unrelated updates.
    if (
      next.errors.length &&
      (prev.errors.length === 0 || JSON.stringify(next.errors) !== JSON.stringify(prev.errors))
    )
      throw refuse();
    const enforce = next.policy.enforce;
    const before = prev.policy.enforce;
    if (sameLevelVersion(enforce, before) || enforce.level === "privileged") return;
    if (
      enforce.version.minor === before.version.minor &&
      compareLevels(enforce.level, before.level) < 1
    )
      return;
    if (this.exempt.namespaces.has(name)) {
      this.warnExemptNamespace(scope, name, next.policy, ns);
      return;
    }
    scope.warnings.push(...this.existingPodWarnings(name, enforce));
  }

  /** kube's warning when an exempt namespace carries a policy that will not apply. */
  private warnExemptNamespace(
    scope: RequestScope,
    name: string,
    policy: Policy,
    ns: KubeObject,
  ): void {
    if (!this.exempt.namespaces.has(name)) return;
    if (fullyPrivileged(policy) || equivalentPolicies(policy, this.defaults)) return;
    const labels = ns.metadata?.labels ?? {};
    const parts = MODES.filter(
      (m) =>
        policy[m].level !== "privileged" &&
        (labels[levelLabel(m)] !== undefined || labels[versionLabel(m)] !== undefined),
    ).map((m) => `${m}=${formatLevelVersion(policy[m])}`);
    scope.warnings.push(
      `namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(", ")}) will be ignored`,
    );
  }

  /** The warnings of a tightened enforce level: pods grouped by the checks they fail. */
  private existingPodWarnings(namespace: string, enforce: Policy["enforce"]): string[] {
    const pods = this.store.list(PODS, namespace).filter((p) => !this.exemptRuntimeClass(p.spec));
    const checked = pods.slice(0, MAX_PODS_TO_CHECK);
    const byReason = new Map<string, { first: string; count: number }>();
    for (const pod of checked) {
      const violations = evaluatePod(enforce, podView(pod.metadata, pod.spec));
      if (!violations.length) continue;
      const reason = forbiddenReason(violations);
      const podName = pod.metadata?.name ?? "";
      const seen = byReason.get(reason);
      if (!seen) byReason.set(reason, { first: podName, count: 1 });
      else {
        seen.count++;
        if (podName < seen.first) seen.first = podName;
      }
    }
    const out: string[] = [];
    if (checked.length < pods.length)
      out.push(
        `new PodSecurity enforce level only checked against the first ${checked.length} of ${pods.length} existing pods`,
      );
    if (byReason.size)
      out.push(
        `existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(formatLevelVersion(enforce))}`,
      );
    const perPod = [...byReason].map(([reason, { first, count }]) =>
      count === 1
        ? `${first}: ${reason}`
        : count === 2
          ? `${first} (and 1 other pod): ${reason}`
          : `${first} (and ${count - 1} other pods): ${reason}`,
    );
    return [...out, ...perPod.sort()];
  }

  private admitPod(scope: RequestScope, pod: KubeObject, old: KubeObject | undefined): void {
    if (scope.subresource !== undefined && IGNORED_POD_SUBRESOURCES.has(scope.subresource)) return;
    if (!scope.namespace || this.isExempt(scope)) return;
    const { policy, errors: labelErrors } = this.policyOf(scope.namespace);
    if (labelErrors.length === 0 && fullyPrivileged(policy)) return;
    if (old && !isSignificantPodUpdate(pod, old)) return;
    this.evaluate(scope, policy, pod.metadata, pod.spec, pod.metadata?.name ?? "", true);
  }

  private admitWorkload(
    scope: RequestScope,
    obj: KubeObject,
    templateOf: (o: KubeObject) => unknown,
  ): void {
    if (scope.subresource !== undefined) return;
    if (!scope.namespace || this.isExempt(scope)) return;
    const { policy, errors: labelErrors } = this.policyOf(scope.namespace);
    if (
      labelErrors.length === 0 &&
      policy.warn.level === "privileged" &&
      policy.audit.level === "privileged"
    )
      return;
    const template = templateOf(obj);
    // A workload without a template has nothing to check (kube skips it likewise).
    if (!isObject(template)) return;
    const t = template as JsonObject;
    this.evaluate(scope, policy, t.metadata, t.spec, obj.metadata?.name ?? "", false);
  }

  private evaluate(
    scope: RequestScope,
    policy: Policy,
    metadata: unknown,
    spec: unknown,
    name: string,
    enforce: boolean,
  ): void {
    if (this.exemptRuntimeClass(spec)) return;
    const pod = podView(metadata, spec);
    let enforced: ReturnType<typeof evaluatePod> | undefined;
    if (enforce) {
      enforced = evaluatePod(policy.enforce, pod);
      if (enforced.length)
        throw errors.forbidden(
          { group: "", resource: "pods" },
          name,
          `violates PodSecurity ${JSON.stringify(formatLevelVersion(policy.enforce))}: ${forbiddenDetail(enforced)}`,
        );
    }
    const warned =
      enforced && sameLevelVersion(policy.warn, policy.enforce)
        ? enforced
        : evaluatePod(policy.warn, pod);
    if (warned.length)
      scope.warnings.push(
        `would violate PodSecurity ${JSON.stringify(formatLevelVersion(policy.warn))}: ${forbiddenDetail(warned)}`,
      );
  }
}

/**
 * Whether a pod update can change what the checks see: pod specs are immutable but for images,
 * and ephemeral containers are added through their own subresource
 * (pod-security-admission's isSignificantPodUpdate).
 */
export function isSignificantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = objectAt(pod.spec);
  const oldSpec = objectAt(old.spec);
  const annotations = objectAt(pod.metadata?.annotations) as Record<string, unknown>;
  const oldAnnotations = objectAt(old.metadata?.annotations) as Record<string, unknown>;
  const list = (s: JsonObject, k: string) => (Array.isArray(s[k]) ? (s[k] as JsonObject[]) : []);
  const significant = (c: JsonObject, o: JsonObject) => {
    if (c.image !== o.image) return true;
    const key = `container.seccomp.security.alpha.kubernetes.io/${String(c.name)}`;
    return annotations[key] !== oldAnnotations[key];
  };
  for (const k of ["containers", "initContainers"]) {
    const now = list(spec, k);
    const then = list(oldSpec, k);
    if (now.length !== then.length) return true;
    if (now.some((c, i) => significant(c, then[i]!))) return true;
  }
  const oldEphemeral = list(oldSpec, "ephemeralContainers");
  return list(spec, "ephemeralContainers").some((c) => {
    const o = oldEphemeral.find((e) => e.name === c.name);
    return !o || significant(c, o);
  });
}
