/**
 * The webhooks the server calls, read from the stored Mutating/ValidatingWebhookConfigurations
 * and kept current as they change (kube's configuration managers): configurations sorted by name,
 * webhooks in their listed order (`apiserver: pkg/admission/configuration/*_webhook_manager.go`).
 */
import { bucketKey } from "../api/registry.js";
import type { JsonObject, KubeObject, WebhookClientConfig } from "../api/types.js";
import type { Store } from "../store/store.js";
import type { MatchCondition } from "./match-conditions.js";

export interface Rule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface LabelSelectorSpec {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** One webhook of a configuration, defaulted as stored. */
export interface Webhook {
  /** The configuration's name (for ordering and messages). */
  configuration: string;
  mutating: boolean;
  name: string;
  clientConfig: WebhookClientConfig;
  rules: Rule[];
  failurePolicy: string;
  matchPolicy: string;
  namespaceSelector?: LabelSelectorSpec;
  objectSelector?: LabelSelectorSpec;
  sideEffects: string;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  reinvocationPolicy: string;
  matchConditions: MatchCondition[];
}

const buckets = {
  mutating: bucketKey("admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
  validating: bucketKey("admissionregistration.k8s.io", "validatingwebhookconfigurations"),
};

function webhooksOf(configs: KubeObject[], mutating: boolean): Webhook[] {
  const sorted = [...configs].sort((a, b) =>
    (a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1,
  );
  const out: Webhook[] = [];
  for (const c of sorted) {
    for (const h of (c.webhooks ?? []) as JsonObject[]) {
      out.push({
        configuration: c.metadata?.name ?? "",
        mutating,
        name: String(h.name ?? ""),
        clientConfig: (h.clientConfig ?? {}) as WebhookClientConfig,
        rules: (h.rules ?? []) as Rule[],
        failurePolicy: String(h.failurePolicy ?? "Fail"),
        matchPolicy: String(h.matchPolicy ?? "Equivalent"),
        ...(h.namespaceSelector
          ? { namespaceSelector: h.namespaceSelector as LabelSelectorSpec }
          : {}),
        ...(h.objectSelector ? { objectSelector: h.objectSelector as LabelSelectorSpec } : {}),
        sideEffects: String(h.sideEffects ?? ""),
        timeoutSeconds: typeof h.timeoutSeconds === "number" ? h.timeoutSeconds : 10,
        admissionReviewVersions: (h.admissionReviewVersions ?? []) as string[],
        reinvocationPolicy: String(h.reinvocationPolicy ?? "Never"),
        matchConditions: (h.matchConditions ?? []) as MatchCondition[],
      });
    }
  }
  return out;
}

/** The current webhooks, rebuilt only after a configuration changed. */
export class WebhookSource {
  private cache: { mutating?: Webhook[]; validating?: Webhook[] } = {};

  constructor(private readonly store: Store) {
    store.subscribe(buckets.mutating, () => {
      delete this.cache.mutating;
    });
    store.subscribe(buckets.validating, () => {
      delete this.cache.validating;
    });
  }

  mutating(): Webhook[] {
    this.cache.mutating ??= webhooksOf(this.store.list(buckets.mutating), true);
    return this.cache.mutating;
  }

  validating(): Webhook[] {
    this.cache.validating ??= webhooksOf(this.store.list(buckets.validating), false);
    return this.cache.validating;
  }
}
