/**
 * What every create and update passes before it is stored, in kube-apiserver's order: the body's
 * type and namespace checked against the endpoint, then defaulting, pruning and validation
 * (OpenAPI and CEL for custom resources, the resource's strategy in registry/ otherwise), the
 * admission hooks tests install, and the finalizer rules of objects being deleted.
 * NamespaceLifecycle admission is namespace-lifecycle.ts.
 */
import { errors, type FieldError } from "@opgen/apimachinery/status";
import { finalizerWarnings, validateObjectMeta } from "../api/meta.js";
import {
  groupVersion,
  isObject,
  type JsonObject,
  type KubeObject,
  type ObjectMeta,
  type ResourceInfo,
} from "../api/types.js";
import { decodeBuiltin, fieldValidationOf } from "./schema-pipeline.js";
import type { RequestScope } from "./scope.js";
import type { Steps } from "./write-steps.js";

/** An extra admission step a test installs (the role of a webhook). */
export interface AdmissionHook {
  /** Called before storing a create or update; throws to reject, may mutate `obj`. */
  admit?(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void;
  /**
   * A check of kube's storage layer (RBAC's escalation prevention): called after the mutating
   * webhooks, before the strategy prepares and validates the object; throws to reject.
   */
  beforeStrategy?(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void;
  /**
   * A validating admission plugin: called after the object passed validation, before the
   * validating webhooks; throws to reject, must not mutate `obj`.
   */
  validate?(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void;
  /**
   * A validating plugin kube runs after the validating webhooks (ResourceQuota): nothing awaits
   * between it and the write; throws to reject, must not mutate `obj`.
   */
  afterWebhooks?(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void;
}

export function meta(o: KubeObject): ObjectMeta {
  if (!isObject(o.metadata)) o.metadata = {};
  return o.metadata as ObjectMeta;
}

export function gr(info: ResourceInfo) {
  return { group: info.group, resource: info.resource };
}

/** Decodes the request body's type and namespace against the endpoint. */
export function checkTypeAndNamespace(
  scope: RequestScope,
  obj: KubeObject,
  verb: "create" | "update",
): void {
  const expected = groupVersion(scope.info.group, scope.version.name);
  if (obj.apiVersion !== undefined && obj.apiVersion !== expected) {
    const isScale = scope.subresource === "scale";
    if (!isScale) {
      throw errors.badRequest(
        `the API version in the data (${obj.apiVersion}) does not match the expected API version (${expected})`,
      );
    }
  }
  if (scope.subresource !== "scale" && obj.kind !== undefined && obj.kind !== scope.info.kind) {
    if (scope.info.custom) {
      throw errors.invalid(scope.info.kind, scope.info.group, obj.metadata?.name ?? "", [
        {
          type: "FieldValueInvalid",
          field: "kind",
          value: obj.kind,
          detail: `must be ${scope.info.kind}`,
        },
      ]);
    }
    throw errors.badRequest(
      `the kind in the data (${obj.kind}) does not match the expected kind (${scope.info.kind})`,
    );
  }
  obj.apiVersion = expected;
  obj.kind = scope.info.kind;
  const m = meta(obj);
  if (scope.info.namespaced) {
    if (!m.namespace) m.namespace = scope.namespace;
    else if (scope.namespace && m.namespace !== scope.namespace) {
      throw errors.badRequest(
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
  } else {
    delete m.namespace;
  }
  if (
    verb === "update" &&
    m.name !== undefined &&
    scope.name !== undefined &&
    m.name !== scope.name
  ) {
    throw errors.badRequest(
      `the name of the object (${m.name}) does not match the name on the URL (${scope.name})`,
    );
  }
}

/** CreateOptions or UpdateOptions as admission webhooks receive them. */
export function writeOptions(scope: RequestScope, operation: "CREATE" | "UPDATE"): JsonObject {
  const dryRun = scope.query.getAll("dryRun");
  const fieldManager = scope.query.get("fieldManager");
  const fieldValidation = scope.query.get("fieldValidation");
  return {
    kind: operation === "CREATE" ? "CreateOptions" : "UpdateOptions",
    apiVersion: "meta.k8s.io/v1",
    ...(dryRun.length ? { dryRun } : {}),
    ...(fieldManager ? { fieldManager } : {}),
    ...(fieldValidation ? { fieldValidation } : {}),
  };
}

/**
 * Replaces what `obj` holds with `next`, keeping both `obj` and its metadata object (callers hold
 * them), and the system fields a webhook may not set.
 */
function replaceContents(obj: KubeObject, next: KubeObject): void {
  const m = meta(obj);
  const system = {
    uid: m.uid,
    resourceVersion: m.resourceVersion,
    creationTimestamp: m.creationTimestamp,
    generation: m.generation,
    deletionTimestamp: m.deletionTimestamp,
    deletionGracePeriodSeconds: m.deletionGracePeriodSeconds,
  };
  for (const k of Object.keys(obj)) delete obj[k];
  for (const k of Object.keys(m)) delete (m as JsonObject)[k];
  Object.assign(m, isObject(next.metadata) ? next.metadata : {});
  for (const [k, v] of Object.entries(system)) {
    if (v === undefined) delete (m as JsonObject)[k];
    else (m as JsonObject)[k] = v;
  }
  Object.assign(obj, next, { metadata: m });
}

/**
 * Decodes a written body as the resource's strategy does, built-ins by default: typed decoding
 * (strict field validation on the request's body, silent on what mutating admission returned)
 * and the strategy's defaults.
 */
function decode(scope: RequestScope, obj: KubeObject, mutated: boolean): void {
  const strategy = scope.info.strategy;
  if (strategy.decode) {
    strategy.decode(scope, obj, mutated);
    return;
  }
  if (mutated) decodeBuiltin(scope.info, scope.version, obj, "Ignore", []);
  else
    decodeBuiltin(
      scope.info,
      scope.version,
      obj,
      fieldValidationOf(scope.query),
      scope.warnings,
      scope.duplicateFields,
      scope.noEmpties,
    );
  strategy.defaults?.(obj);
}

/**
 * Defaulting, pruning and validation of a candidate object, with the mutating webhooks after the
 * built-in admission plugins and the validating ones after validation, as kube-apiserver runs
 * them (`apiserver: pkg/endpoints/handlers/create.go`, `registry/generic/registry/store.go`).
 */
export function* admit(
  hooks: readonly AdmissionHook[],
  scope: RequestScope,
  obj: KubeObject,
  old: KubeObject | undefined,
  dryRun = false,
): Steps<void> {
  const info = scope.info;
  const strategy = info.strategy;
  const fieldErrors: FieldError[] = [];
  decode(scope, obj, false);
  for (const hook of hooks) hook.admit?.(scope, obj, old);
  const operation = old ? "UPDATE" : "CREATE";
  const options = writeOptions(scope, operation);
  const mutated = yield {
    step: "mutate",
    scope,
    operation,
    object: obj,
    ...(old ? { oldObject: old } : {}),
    options,
    dryRun,
  };
  if (mutated) {
    replaceContents(obj, mutated as KubeObject);
    // A patched object is decoded and defaulted again.
    decode(scope, obj, true);
  }
  for (const hook of hooks) hook.beforeStrategy?.(scope, obj, old);
  info.beginWrite?.(scope, obj, old);
  if (!old && scope.subresource === undefined)
    strategy.prepareForCreate?.(obj, scope.warnings, scope.user);
  fieldErrors.push(
    ...validateObjectMeta(obj, {
      namespaced: info.namespaced,
      nameRule: strategy.nameRule,
      update: old !== undefined,
    }),
  );
  if (strategy.validateWrite) {
    fieldErrors.push(...strategy.validateWrite(obj, old, scope, fieldErrors));
  } else {
    if (strategy.validate) fieldErrors.push(...strategy.validate(obj));
    if (!old && strategy.validateCreate) fieldErrors.push(...strategy.validateCreate(obj));
    // ValidateUpdate: immutable fields (a status write cannot change them anyway).
    if (old && strategy.validateUpdate && scope.subresource !== "status")
      fieldErrors.push(...strategy.validateUpdate(obj, old, scope.subresource));
  }
  if (old) {
    const om = old.metadata ?? {};
    const nm = meta(obj);
    if (om.deletionTimestamp) {
      const added = (nm.finalizers ?? []).filter((f) => !(om.finalizers ?? []).includes(f));
      if (added.length > 0) {
        fieldErrors.push({
          type: "FieldValueForbidden",
          field: "metadata.finalizers",
          detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added
            .map((f) => JSON.stringify(f))
            .join(", ")}}`,
        });
      }
    }
  }
  if (fieldErrors.length > 0) {
    throw errors.invalid(
      info.kind,
      info.group,
      obj.metadata?.name ?? obj.metadata?.generateName ?? "",
      fieldErrors,
    );
  }
  for (const hook of hooks) hook.validate?.(scope, obj, old);
  // Validating webhooks must not change what is stored: the dispatcher copies the object when a
  // webhook is configured (most writes have none, and then nothing is copied).
  yield {
    step: "validate",
    scope,
    operation,
    object: obj,
    ...(old ? { oldObject: old } : {}),
    options,
    dryRun,
  };
  for (const hook of hooks) hook.afterWebhooks?.(scope, obj, old);
  scope.warnings.push(...finalizerWarnings(obj));
}
