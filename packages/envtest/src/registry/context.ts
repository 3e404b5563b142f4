/**
 * What the definitions of an API group are built from: the server's parts their handlers call
 * (a pod's eviction reads budgets and deletes, a TokenRequest signs with the service account
 * issuer), and its version profile (the catalog, the feature gates). Definitions are built per
 * server from this context, never module-level state, so one process can run many servers, of
 * different Kubernetes versions or feature gates.
 */
import type { KubeVersion } from "@opgen/apimachinery/version";
import type { Registry } from "../api/registry.js";
import type { ResourceDefinition } from "../api/resource.js";
import type { RbacAuthorizer } from "../auth/rbac.js";
import type { ServiceAccountTokens } from "../auth/service-account-tokens.js";
import type { TokenAuthenticator } from "../auth/tokens.js";
import type { ApiClient } from "../client/api-client.js";
import type { ObjectRest } from "../rest/objects.js";
import type { Store } from "../store/store.js";
import type { BudgetStatusSync } from "./policy/pod-disruption-budgets.js";

export interface DefinitionContext {
  /** The server's Kubernetes version profile. */
  readonly kube: KubeVersion;
  readonly store: Store;
  readonly rest: ObjectRest;
  readonly registry: Registry;
  /** Bearer tokens and client certificates (TokenReview). */
  readonly auth: TokenAuthenticator;
  /** The service account token issuer (TokenRequest). */
  readonly tokens: ServiceAccountTokens;
  /** The PodDisruptionBudget controller, which an eviction asks for a budget's status. */
  readonly disruption: BudgetStatusSync;
  /** kube-apiserver's loopback client (an eviction writes the budget's status through it). */
  readonly loopback: ApiClient;
  /** RBAC's rules, which answer the access reviews. */
  readonly rbac: RbacAuthorizer;
  /** "rbac": the reviews answer from RBAC; "none": everyone may do everything (AlwaysAllow). */
  readonly authorization: "none" | "rbac";
}

/** The resources one API group serves, with their behaviour (`registry/<group>/index.ts`). */
export interface GroupDefinitions {
  readonly group: string;
  resources(ctx: DefinitionContext): readonly ResourceDefinition[];
}
