/**
 * The points of a write where kube-apiserver leaves the request's own code: the admission
 * plugins that call out (MutatingAdmissionWebhook, ValidatingAdmissionPolicy,
 * ValidatingAdmissionWebhook; admission/chain.ts places them) and conversion through a CRD's
 * conversion webhook. The REST verbs are generators that yield these points, so one body of
 * code serves both the synchronous callers inside the server (bootstrap, controllers: no
 * webhooks, no policies) and HTTP requests, whose driver awaits the calls.
 */
import { ApiError, errors } from "@opgen/apimachinery/status";
import {
  deepClone,
  groupVersion,
  type JsonObject,
  type KubeObject,
  type ResourceInfo,
  type ResourceVersionInfo,
} from "../api/types.js";
import type { RequestScope } from "./scope.js";

export type { WriteResult } from "../api/resource.js";

export type Operation = "CREATE" | "UPDATE" | "DELETE";

/** One admission call site: the attributes webhooks and policies are matched against. */
export interface AdmissionPoint {
  /** The plugin yielded to: mutating webhooks, admission policies, validating webhooks. */
  step: "mutate" | "policy" | "validate";
  scope: RequestScope;
  operation: Operation;
  /** The new object in the request version (absent on DELETE). */
  object?: KubeObject;
  /** The existing object in the request version (UPDATE, DELETE). */
  oldObject?: KubeObject;
  /** CreateOptions, UpdateOptions or DeleteOptions as sent to webhooks. */
  options: JsonObject;
  dryRun: boolean;
  /** The object's kind when it is not the resource's (a subresource's Eviction, Scale, ...). */
  kind?: { group: string; version: string; kind: string };
}

/** Objects of a webhook-converted CRD that must be turned into `version`. */
export interface ConversionPoint {
  step: "convert";
  info: ResourceInfo;
  objects: KubeObject[];
  version: ResourceVersionInfo;
}

export type WriteStep = AdmissionPoint | ConversionPoint;
export type Steps<T> = Generator<WriteStep, T, unknown>;

/**
 * What an HTTP request's write awaits at each point. An admission method answers undefined at
 * once when nothing is configured for it, so a write with no webhook and no policy awaits nothing.
 */
export interface WriteDriver {
  /** MutatingAdmissionWebhook: the object as the webhooks mutated it (undefined: unchanged). */
  mutate(p: AdmissionPoint): Promise<KubeObject | undefined> | undefined;
  /** ValidatingAdmissionPolicy. */
  policy(p: AdmissionPoint): Promise<void> | undefined;
  /** ValidatingAdmissionWebhook. */
  validate(p: AdmissionPoint): Promise<void> | undefined;
  convert(p: ConversionPoint): Promise<KubeObject[]>;
}

/**
 * Runs a write with no webhooks: the server's own writes (bootstrap, controllers). They work in
 * the storage version; an object still stored under an earlier storage version only has its
 * apiVersion rewritten for the answer they discard (what they store is the stored object).
 */
export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    const s = next.value;
    next = steps.next(s.step === "convert" ? rewriteOnly(s) : undefined);
  }
  return next.value;
}

function rewriteOnly(s: ConversionPoint): KubeObject[] {
  const apiVersion = groupVersion(s.info.group, s.version.name);
  return s.objects.map((o) => ({ ...deepClone(o), apiVersion }));
}

/** Runs a write for a request, awaiting the driver at each point. */
export async function runAsync<T>(steps: Steps<T>, driver: WriteDriver | undefined): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const s = next.value;
    let answer: unknown;
    if (s.step === "convert") {
      answer = driver ? await driver.convert(s) : rewriteOnly(s);
    } else if (driver) {
      const pending =
        s.step === "mutate"
          ? driver.mutate(s)
          : s.step === "policy"
            ? driver.policy(s)
            : driver.validate(s);
      if (pending) answer = await pending;
    }
    next = steps.next(answer);
  }
  return next.value;
}

export class ConcurrentWrite extends ApiError {
  constructor(gr: { group: string; resource: string }, name: string) {
    const e = errors.optimisticLock(gr, name);
    super(e.code, e.status.reason, e.message, e.status.details);
  }
}

/** Runs a request's write again (from reading the object) while it loses such races. */
export async function retryConcurrent<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (!(e instanceof ConcurrentWrite) || attempt >= 10) throw e;
    }
  }
}
