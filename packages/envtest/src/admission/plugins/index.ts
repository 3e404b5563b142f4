/**
 * The admission plugins envtest runs, in kube-apiserver's order (`AllOrderedPlugins` in
 * `pkg/kubeapiserver/options/plugins.go`, the default-on ones a test meets). Each phase runs the
 * list in this order (admission/chain.ts): the mutating phase NamespaceLifecycle, LimitRanger,
 * ServiceAccount, then the mutating webhooks; the validating phase LimitRanger, PodSecurity, the
 * certificate plugins, ValidatingAdmissionPolicy, the validating webhooks and ResourceQuota.
 * Optional entries are switched on here by option, never by the order of a push.
 */
import type { Registry } from "../../api/registry.js";
import type { RbacAuthorizer } from "../../auth/rbac.js";
import { quotable } from "../../rest/quota/usage.js";
import type { Store } from "../../store/store.js";
import type { AdmissionPlugin } from "../chain.js";
import {
  type Authorize,
  certificateApproval,
  certificateSigning,
  certificateSubjectRestriction,
} from "./certificates.js";
import { LimitRanger } from "./limit-ranger.js";
import { namespaceLifecycle } from "./namespace-lifecycle.js";
import { PodSecurityAdmission, type PodSecurityOptions } from "./pod-security/admission.js";
import { RbacEscalationCheck } from "./rbac-escalation.js";
import { ResourceQuotaAdmission } from "./resource-quota.js";
import { ServiceAccountAdmission } from "./service-account.js";
import {
  mutatingAdmissionWebhook,
  validatingAdmissionPolicy,
  validatingAdmissionWebhook,
} from "./webhooks.js";

export interface AdmissionOptions {
  store: Store;
  registry: Registry;
  /** The PodSecurity admission configuration: default policy and exemptions. */
  podSecurity?: PodSecurityOptions;
  /** The server's authorizer, read per request (the certificate plugins' approve and sign). */
  authorize: () => Authorize | undefined;
  /** RBAC's escalation check, on with `auth: "rbac"`; `forbade` hears of its refusals. */
  rbacEscalation?: { rbac: RbacAuthorizer; forbade: (user: string, message: string) => void };
}

export function admissionPlugins(o: AdmissionOptions): AdmissionPlugin[] {
  const plugins: (AdmissionPlugin | undefined)[] = [
    namespaceLifecycle(o.store),
    new LimitRanger(o.store),
    new ServiceAccountAdmission(o.store),
    new PodSecurityAdmission(o.store, o.podSecurity),
    certificateApproval(o.authorize),
    certificateSigning(o.authorize),
    certificateSubjectRestriction,
    mutatingAdmissionWebhook,
    // Not an admission plugin: kube checks escalation in the RBAC resources' storage
    // (`pkg/registry/rbac/*/policybased`), after the mutating phase and before the strategy.
    o.rbacEscalation && new RbacEscalationCheck(o.rbacEscalation.rbac, o.rbacEscalation.forbade),
    validatingAdmissionPolicy,
    validatingAdmissionWebhook,
    // Last, with nothing awaited between its check of usage and the write.
    new ResourceQuotaAdmission(o.store, quotable(o.registry)),
  ];
  return plugins.filter((p): p is AdmissionPlugin => p !== undefined);
}
