/**
 * The points of a write where kube-apiserver leaves the request's own code: mutating and
 * validating admission (webhooks) and conversion through a CRD's conversion webhook. The REST
 * verbs are generators that yield these points, so one body of code serves both the synchronous
 * callers inside the server (bootstrap, controllers: no webhooks) and HTTP requests, whose
 * driver awaits the webhook calls.
 */
import { errors } from "@opgen/apimachinery/status";
import type { JsonObject, KubeObject, ResourceInfo, ResourceVersionInfo } from "../api/types.js";
import type { RequestScope } from "./scope.js";

export type Operation = "CREATE" | "UPDATE" | "DELETE";

/** One admission call site: the attributes webhooks are matched against and sent. */
export interface AdmissionPoint {
  step: "mutate" | "validate";
  scope: RequestScope;
  operation: Operation;
  /** The new object in the request version (absent on DELETE). */
  object?: KubeObject;
  /** The existing object in the request version (UPDATE, DELETE). */
  oldObject?: KubeObject;
  /** CreateOptions, UpdateOptions or DeleteOptions as sent to webhooks. */
  options: JsonObject;
  dryRun: boolean;
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

/** What an HTTP request's write awaits at each point. */
export interface WriteDriver {
  /** Returns the object as mutated by the webhooks (undefined: unchanged). */
  mutate(p: AdmissionPoint): Promise<KubeObject | undefined>;
  validate(p: AdmissionPoint): Promise<void>;
  convert(p: ConversionPoint): Promise<KubeObject[]>;
}

/** Runs a write with no webhooks: the server's own writes (bootstrap, controllers). */
export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    const s = next.value;
    // Internal callers work in the storage version, which never needs a webhook.
    if (s.step === "convert") throw noConverter(s);
    next = steps.next(undefined);
  }
  return next.value;
}

/** Runs a write for a request, awaiting the driver at each point. */
export async function runAsync<T>(steps: Steps<T>, driver: WriteDriver | undefined): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const s = next.value;
    let answer: unknown;
    if (s.step === "convert") {
      if (!driver) throw noConverter(s);
      answer = await driver.convert(s);
    } else if (driver) {
      answer = s.step === "mutate" ? await driver.mutate(s) : await driver.validate(s);
    }
    next = steps.next(answer);
  }
  return next.value;
}

function noConverter(s: ConversionPoint): Error {
  return errors.internal(
    `conversion of ${s.info.kind} to ${s.version.name} needs its conversion webhook`,
  );
}
