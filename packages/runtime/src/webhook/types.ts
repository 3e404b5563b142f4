/**
 * The admission.k8s.io/v1 wire types (AdmissionReview, AdmissionRequest, AdmissionResponse) and the
 * interfaces an operator implements: a typed defaulter and validator (controller-runtime's
 * `admission.Defaulter[T]` / `admission.Validator[T]`), called with the request in their context.
 */
import type { StatusDetails } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import type { Logger } from "../log/logger.js";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What the API server asks (admission/v1 AdmissionRequest). */
export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: Operation;
  userInfo: UserInfo;
  /** The object as it would be stored; null on DELETE. */
  object?: KubeObject | null;
  /** The existing object on UPDATE, the object being deleted on DELETE. */
  oldObject?: KubeObject | null;
  /** Nothing will be persisted: a webhook with side effects must not make them. */
  dryRun?: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions. */
  options?: Record<string, unknown> | null;
}

/** metav1.Status as it appears in an AdmissionResponse (no kind/apiVersion, as Go writes it). */
export interface ResponseStatus {
  metadata: Record<string, unknown>;
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** The verdict (admission/v1 AdmissionResponse); `patch` is base64 of a JSON Patch. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: ResponseStatus;
  patch?: string;
  patchType?: "JSONPatch";
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion?: string;
  kind?: string;
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

/** Warnings shown to the client (kubectl prints them as `Warning: ...`). */
export type Warnings = string[];

/** What a validator returns: warnings, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: implementations may simply not return
export type ValidationResult = Warnings | void;

/** What a defaulter or validator is called with (controller-runtime's request in the context). */
export interface AdmissionContext {
  /** The whole request: operation, userInfo, dryRun, namespace, name, options, ... */
  request: AdmissionRequest;
  /** `request.dryRun`, as a boolean. */
  dryRun: boolean;
  /** The server's logger with the webhook path and request uid. */
  log: Logger;
  /**
   * Aborted when the API server gives up on the call: it closed the connection, or the timeout it
   * sent (`?timeout=10s`, the webhook's timeoutSeconds) passed. Pass it to API calls you make.
   */
  signal: AbortSignal;
}

/**
 * Sets defaults on `obj` in place; the server answers with a JSON Patch of what changed. Throwing
 * denies the request: an ApiError with its own status, any other error with 403 and its message.
 */
export interface CustomDefaulter<T extends KubeObject = KubeObject> {
  default(ctx: AdmissionContext, obj: T): void | Promise<void>;
}

/**
 * Validates creates, updates (old and new object) and deletes (the object being deleted). Return
 * warnings to allow with them; throw to deny: an ApiError (e.g. `errors.invalid(...)` with field
 * causes) with its own status and code, any other error with 403 Forbidden and its message. An
 * error carrying `warnings: string[]` has them sent with the denial.
 */
export interface CustomValidator<T extends KubeObject = KubeObject> {
  validateCreate(ctx: AdmissionContext, obj: T): ValidationResult | Promise<ValidationResult>;
  validateUpdate(
    ctx: AdmissionContext,
    oldObj: T,
    newObj: T,
  ): ValidationResult | Promise<ValidationResult>;
  validateDelete(ctx: AdmissionContext, obj: T): ValidationResult | Promise<ValidationResult>;
}

/** One admission webhook: answers a request (the uid is filled in by the caller). */
export type AdmissionHandler = (ctx: AdmissionContext) => Promise<Omit<AdmissionResponse, "uid">>;
