/**
 * @opgen/runtime: the reconcile runtime opgen operators run on (controller-runtime for TypeScript).
 *
 * The root holds what an operator author uses, as controller-runtime's `ctrl`, `client`,
 * `reconcile`, `builder`, `controllerutil`, `predicate` and `handler` packages do together: the
 * manager, builder, reconciler types, client, helpers, conditions, finalizers, events, metrics and
 * the built-in kinds, plus apimachinery's API errors (Go users keep `apierrors` close at hand).
 * Building blocks for advanced use have subpaths, as controller-runtime's `cache` and client-go's
 * `workqueue` are packages of their own: `@opgen/runtime/cache` (informers, the watcher, indexes)
 * and `@opgen/runtime/workqueue` (the rate-limited queue). The HTTP transport is internal
 * (`src/internal/`), exported nowhere. `test/public-api.test.ts` snapshots every entry point.
 */

export type { LabelSelectorInput } from "@opgen/apimachinery/selectors";
export {
  ApiError,
  errors,
  type FieldError,
  field,
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  type StatusBody,
} from "@opgen/apimachinery/status";
export {
  defineKind,
  type Kind,
  type KindSpec,
  kindKey,
  lookupKind,
  parseApiVersion,
} from "./api/kind.js";
export { kinds } from "./api/kinds.js";
export type {
  Condition,
  ConditionStatus,
  Duration,
  IntOrString,
  int32,
  int64,
  JSONValue,
  KubeObject,
  MicroTime,
  NamespacedName,
  ObjectMeta,
  PartialObjectMetadata,
  Quantity,
  RawExtension,
  Time,
} from "./api/types.js";
export { Builder, type OwnsOptions, type WatchOptions } from "./builder/builder.js";
export {
  ConversionBuilder,
  conversionFor,
  WebhookBuilder,
  type WebhookPathOptions,
  webhookFor,
} from "./builder/webhook.js";
export {
  type ByObjectOptions,
  byObject,
  Cache,
  type CacheListOptions,
  type CacheOptions,
  type InformerSelector,
} from "./cache/cache.js";
export { isResourceNotCached, ResourceNotCachedError } from "./cache/scope.js";
export type { IndexFunc } from "./cache/store.js";
export type {
  ApplyOptions,
  Client,
  DeleteOptions,
  GetOptions,
  ListOptions,
  PatchOptions,
  PatchType,
  StatusWriter,
  WriteOptions,
} from "./client/client.js";
export { type CreateClientOptions, createClient } from "./client/create-client.js";
export { retryOnConflict } from "./client/retry.js";
export {
  type ConditionInput,
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  removeStatusCondition,
  setStatusCondition,
  timeNow,
} from "./conditions/conditions.js";
export { Controller, type ControllerOptions } from "./controller/controller.js";
export {
  createOrPatch,
  createOrUpdate,
  type MutateFn,
  type OperationResult,
} from "./controllerutil/createorupdate.js";
export { createMergePatch, semanticEqual } from "./controllerutil/equality.js";
export {
  addFinalizer,
  containsFinalizer,
  hasFinalizer,
  isBeingDeleted,
  removeFinalizer,
} from "./controllerutil/finalizers.js";
export {
  AlreadyOwnedError,
  getControllerOf,
  hasControllerReference,
  hasOwnerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from "./controllerutil/ownerref.js";
export type { EventRecorder, EventType } from "./events/recorder.js";
export { enqueueForObject, enqueueForOwner, type MapFunc } from "./handler/handler.js";
export { type Checker, ping } from "./healthz/server.js";
export { type LeaderElectionConfig, LeaderElector } from "./leaderelection/leaderelection.js";
export {
  createLogger,
  type LogFields,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  nullLogger,
} from "./log/logger.js";
export { redact } from "./log/redact.js";
export { FlagError, managerOptionsFromArgs } from "./manager/flags.js";
export { createManager, type Manager, type Runnable } from "./manager/manager.js";
export { type ManagerOptions, managerDefaults } from "./manager/options.js";
export { setupSignalHandler } from "./manager/signals.js";
export { RuntimeMetrics } from "./metrics/metrics.js";
export {
  and,
  annotationChanged,
  generationChanged,
  labelChanged,
  labelSelector,
  newPredicateFuncs,
  not,
  or,
  type Predicate,
  resourceVersionChanged,
} from "./predicate/predicate.js";
export {
  isTerminalError,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  reconcilerFunc,
  TerminalError,
} from "./reconcile/reconcile.js";
export type { SpokeConversion } from "./webhook/conversion.js";
export { defaultingPath, validatingPath } from "./webhook/paths.js";
export {
  type WebhookServer,
  type WebhookServerOptions,
  webhookServerDefaults,
} from "./webhook/server.js";
export type {
  AdmissionContext,
  AdmissionHandler,
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReview,
  CustomDefaulter,
  CustomValidator,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
  UserInfo,
  ValidationResult,
  Warnings,
} from "./webhook/types.js";
