/**
 * The write pipeline: what every create and update of an object passes before it is stored, in
 * kube-apiserver's order (`apiserver: pkg/endpoints/handlers/create.go`, `update.go`, and the
 * generic `registry/generic/registry/store.go`):
 *
 *  1. decoding: the body's type and namespace checked against the endpoint (by the verb,
 *     checkTypeAndNamespace), then typed decoding with the request's field validation and the
 *     strategy's defaults (a custom resource's strategy prunes and defaults by its schema);
 *  2. the mutating admission phase (admission/chain.ts): in-process plugins, then the mutating
 *     webhooks, whose answer is decoded and defaulted again;
 *  3. storage: the checks kube makes in a resource's storage (RBAC's escalation prevention) and
 *     its BeginCreate/BeginUpdate (a Service's addresses);
 *  4. the strategy: PrepareForCreate, then ObjectMeta's and the resource's validation, and the
 *     finalizer rule of objects being deleted, refused together as one Invalid;
 *  5. the validating admission phase: in-process plugins, ValidatingAdmissionPolicy, the
 *     validating webhooks and ResourceQuota, nothing awaited between the last and the write.
 *
 * The verbs (objects.ts) then set the server's fields and store the result.
 */

import { errors, type FieldError } from "@opgen/apimachinery/status";
import type { AdmissionChain } from "../admission/chain.js";
import { finalizerWarnings, meta, validateObjectMeta } from "../api/meta.js";
import { groupVersion, isObject, type JsonObject, type KubeObject } from "../api/types.js";
import { decodeBuiltin, fieldValidationOf } from "./schema-pipeline.js";
import type { RequestScope } from "./scope.js";
import type { Steps } from "./write-steps.js";

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

/** Runs the write pipeline on `obj` (changed in place), `old` being the stored object on update. */
export function* writePipeline(
  chain: AdmissionChain,
  scope: RequestScope,
  obj: KubeObject,
  old: KubeObject | undefined,
  dryRun = false,
): Steps<void> {
  const operation = old ? "UPDATE" : "CREATE";
  const request = {
    scope,
    operation,
    object: obj,
    ...(old ? { oldObject: old } : {}),
    options: writeOptions(scope, operation),
    dryRun,
  } as const;
  decode(scope, obj, false);
  yield* chain.mutate(request, true, (mutated) => {
    replaceContents(obj, mutated);
    decode(scope, obj, true);
  });
  chain.beforeStrategy(scope, obj, old);
  scope.info.beginWrite?.(scope, obj, old);
  prepareAndValidate(scope, obj, old);
  // Validating webhooks must not change what is stored: the dispatcher copies the object when a
  // webhook is configured (most writes have none, and then nothing is copied).
  yield* chain.validate(request, true);
  scope.warnings.push(...finalizerWarnings(obj));
}

/** The strategy's PrepareForCreate and validation (rest.BeforeCreate, BeforeUpdate). */
function prepareAndValidate(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined) {
  const { info } = scope;
  const strategy = info.strategy;
  if (!old && scope.subresource === undefined)
    strategy.prepareForCreate?.(obj, scope.warnings, scope.user);
  const fieldErrors: FieldError[] = validateObjectMeta(obj, {
    namespaced: info.namespaced,
    nameRule: strategy.nameRule,
    update: old !== undefined,
  });
  if (strategy.validateWrite) {
    fieldErrors.push(...strategy.validateWrite(obj, old, scope, fieldErrors));
  } else {
    if (strategy.validate) fieldErrors.push(...strategy.validate(obj));
    if (!old && strategy.validateCreate) fieldErrors.push(...strategy.validateCreate(obj));
    // ValidateUpdate: immutable fields (a status write cannot change them anyway).
    if (old && strategy.validateUpdate && scope.subresource !== "status")
      fieldErrors.push(...strategy.validateUpdate(obj, old, scope.subresource));
  }
  if (old) fieldErrors.push(...finalizerErrors(obj, old));
  if (fieldErrors.length > 0) {
    throw errors.invalid(
      info.kind,
      info.group,
      obj.metadata?.name ?? obj.metadata?.generateName ?? "",
      fieldErrors,
    );
  }
}

/** No finalizer may be added to an object being deleted. */
function finalizerErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  const om = old.metadata ?? {};
  if (!om.deletionTimestamp) return [];
  const added = (meta(obj).finalizers ?? []).filter((f) => !(om.finalizers ?? []).includes(f));
  if (added.length === 0) return [];
  return [
    {
      type: "FieldValueForbidden",
      field: "metadata.finalizers",
      detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added
        .map((f) => JSON.stringify(f))
        .join(", ")}}`,
    },
  ];
}
