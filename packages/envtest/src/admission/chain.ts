/**
 * The admission chain: kube-apiserver's admission plugins in one ordered list (plugins/index.ts,
 * kube's `AllOrderedPlugins`), run in two phases as kube runs them, every mutating plugin in list
 * order, then every validating one. The plugins that leave the request's own code (the admission
 * webhooks, ValidatingAdmissionPolicy) are steps the write yields to its driver at their place in
 * the list (rest/write-steps.ts): writes inside the server (bootstrap, controllers) run without
 * them. In-process plugins see the writes of objects (create and update, their status and other
 * update subresources); a deletion, a Scale and a POST to a subresource meet the yielded steps.
 */
import type { KubeObject, RequestScope } from "../api/types.js";
import type { AdmissionPoint, Steps } from "../rest/write-steps.js";

/** One admission plugin, as kube-apiserver names it. */
export interface AdmissionPlugin {
  readonly name: string;
  /**
   * A plugin run outside the request (webhooks, policies): the step the write yields to its
   * driver at the plugin's place, mutating ("mutate") or validating ("policy", "validate").
   */
  readonly step?: "mutate" | "policy" | "validate";
  /** Mutating phase: may change `obj`; throws to refuse. */
  admit?(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void;
  /**
   * A check of kube's storage rather than admission (RBAC's escalation prevention): after the
   * mutating phase, before the strategy prepares and validates the object; throws to refuse.
   */
  beforeStrategy?(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void;
  /** Validating phase, after the strategy's validation: throws to refuse, never changes `obj`. */
  validate?(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void;
}

/** An admission point before its step is named: what the plugins are asked about. */
export type AdmissionRequest = Omit<AdmissionPoint, "step">;

export class AdmissionChain {
  // Each phase's plugins, in list order (computed once: every write runs them).
  private readonly mutating: readonly AdmissionPlugin[];
  private readonly storage: readonly AdmissionPlugin[];
  private readonly validating: readonly AdmissionPlugin[];

  constructor(readonly plugins: readonly AdmissionPlugin[] = []) {
    this.mutating = plugins.filter((p) => p.step === "mutate" || p.admit);
    this.storage = plugins.filter((p) => p.beforeStrategy);
    this.validating = plugins.filter(
      (p) => p.step === "policy" || p.step === "validate" || p.validate,
    );
  }

  /**
   * The mutating phase at `request`. `objectWrite` runs the in-process plugins (on
   * `request.object`); `apply` takes what a mutating step returned before the next plugin runs.
   * Returns the last object a step returned (undefined: none changed it).
   */
  *mutate(
    request: AdmissionRequest,
    objectWrite: boolean,
    apply?: (mutated: KubeObject) => void,
  ): Steps<KubeObject | undefined> {
    let result: KubeObject | undefined;
    for (const plugin of this.mutating) {
      if (plugin.step === "mutate") {
        // The step first: adding it after the spread makes V8 build a slow object each time.
        const out = (yield { step: "mutate", ...request }) as KubeObject | undefined;
        if (out) {
          result = out;
          apply?.(out);
        }
      } else if (objectWrite && plugin.admit) {
        plugin.admit(request.scope, request.object!, request.oldObject);
      }
    }
    return result;
  }

  /** The storage checks between the mutating phase and the strategy (object writes). */
  beforeStrategy(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    for (const plugin of this.storage) plugin.beforeStrategy!(scope, obj, old);
  }

  /** The validating phase at `request` (`objectWrite`: with the in-process plugins). */
  *validate(request: AdmissionRequest, objectWrite: boolean): Steps<void> {
    for (const plugin of this.validating) {
      if (plugin.step === "policy" || plugin.step === "validate") {
        yield { step: plugin.step, ...request };
      } else if (objectWrite && plugin.validate) {
        plugin.validate(request.scope, request.object!, request.oldObject);
      }
    }
  }
}
