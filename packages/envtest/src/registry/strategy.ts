/**
 * The per-resource behaviour kube-apiserver keeps in `pkg/registry/<group>/<resource>/strategy.go`
 * and its printers: everything the generic REST store (rest/objects.ts) must not know by name.
 * A family module exports one strategy per resource; registry/index.ts maps resources to them.
 */
import type { FieldError } from "@opgen/apimachinery/status";
import type { NameRule } from "../api/meta.js";
import {
  type JsonObject,
  type KubeObject,
  objectAt,
  type ResourceVersionInfo,
} from "../api/types.js";
import type { UserInfo } from "../rest/scope.js";
import type { Printer } from "./printing.js";

export interface ResourceStrategy {
  /** How metadata.name is validated (the strategy's ValidateObjectMeta name function). */
  readonly nameRule: NameRule;
  /** PrepareForCreate keeps a status sent on create (namespaces, pods, services) instead of dropping it. */
  readonly statusOnCreate?: boolean;
  /** Subresources beyond status and scale that the resource serves (namespaces/finalize). */
  readonly extraSubresources?: readonly string[];
  /**
   * Subresources whose update takes the body's status for prepareForUpdate to sort out
   * (certificatesigningrequests/approval) instead of keeping the stored one.
   */
  readonly ownsSubresourceStatus?: readonly string[];
  /** The part of the object whose change bumps metadata.generation (default: spec). */
  generationRelevant?(o: KubeObject, version: ResourceVersionInfo): unknown;
  /** Server-side defaults (`defaults.go`), applied on every write. */
  defaults?(o: KubeObject): void;
  /** Kind-specific validation beyond ObjectMeta. */
  validate?(o: KubeObject): FieldError[];
  /** ValidateCreate beyond `validate`: what a create may not hold (ephemeral containers). */
  validateCreate?(o: KubeObject): FieldError[];
  /**
   * PrepareForCreate after admission plugins ran (a pod's QoS class from its final resources);
   * `warnings` collects the ones kube adds there (a pod's deprecated AppArmor annotations);
   * `user` is the request's identity (a CertificateSigningRequest's requester).
   */
  prepareForCreate?(o: KubeObject, warnings: string[], user?: UserInfo): void;
  /**
   * Validation that reads the stored object and the subresource (a CSR's status and approval
   * rules); when present it replaces `validate` and `validateUpdate`.
   */
  validateWrite?(
    o: KubeObject,
    old: KubeObject | undefined,
    subresource: string | undefined,
  ): FieldError[];
  /** ValidateUpdate beyond `validate`: the fields an update may not change (immutability). */
  validateUpdate?(o: KubeObject, old: KubeObject, subresource: string | undefined): FieldError[];
  /** PrepareForUpdate: carries over from `old` what this request may not change. */
  prepareForUpdate?(o: KubeObject, old: KubeObject, subresource: string | undefined): void;
  /** Finalizers outside metadata.finalizers that hold a deletion (a namespace's spec.finalizers). */
  pendingFinalizers?(o: KubeObject): readonly unknown[];
  /** Seconds a deletion waits for (a pod on a node terminates gracefully); 0 deletes at once. */
  gracePeriodSeconds?(o: KubeObject, requested: number | undefined): number;
  /** Marks an object whose deletion has just begun (a namespace turns Terminating). */
  beginDeletion?(o: KubeObject): void;
  /** Why this object may never be deleted, if it may not (the immortal namespaces). */
  deleteForbidden?(o: KubeObject): string | undefined;
  /** The Table columns `kubectl get` prints (default: Name, Created At). */
  printer?(version: ResourceVersionInfo): Printer | undefined;
}

/** The generic strategy: resources with no behaviour of their own. */
export const genericStrategy: ResourceStrategy = { nameRule: "subdomain" };

export { objectAt } from "../api/types.js";

/** Sets `o[key]` to an object (keeping an existing one) and returns it, for defaulting. */
export function ensureObject(o: JsonObject, key: string): JsonObject {
  const v = objectAt(o[key]);
  o[key] = v;
  return v;
}
