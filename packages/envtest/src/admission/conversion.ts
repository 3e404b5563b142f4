/**
 * CRD conversion through the webhook (`apiext: pkg/apiserver/conversion/webhook_converter.go`):
 * the objects whose apiVersion differs from the target go in one ConversionReview, the answer is
 * checked as kube checks it (kind, uid, result, count, and per object apiVersion, kind, name,
 * namespace and UID), and only labels and annotations of the returned metadata are kept. There is
 * no failure policy: any failure fails the request with 500 `conversion webhook for <gvk> failed`.
 */
import { randomUUID } from "node:crypto";
import { errors } from "@opgen/apimachinery/status";
import {
  deepClone,
  groupVersion,
  isObject,
  type JsonObject,
  type KubeObject,
  type ResourceInfo,
} from "../api/types.js";
import type { Store } from "../store/store.js";
import { CallError, postJson } from "./client.js";
import { callTarget } from "./targets.js";

const reviewVersions = ["v1", "v1beta1"];

/** kube's GroupVersionKind.String(): `group/version, Kind=Kind`. */
function gvkString(apiVersion: string | undefined, kind: string): string {
  return `${apiVersion ?? ""}, Kind=${kind}`;
}

/** Converts `objects` (all of another version) to `version` through the CRD's webhook. */
export async function convertByWebhook(
  store: Store,
  info: ResourceInfo,
  objects: KubeObject[],
  version: string,
): Promise<KubeObject[]> {
  const webhook = info.conversionWebhook;
  if (!webhook || objects.length === 0) return objects.map((o) => deepClone(o));
  const target = groupVersion(info.group, version);
  const source = gvkString(objects[0]!.apiVersion, info.kind);
  const failed = (cause: string) =>
    errors.internal(`conversion webhook for ${source} failed: ${cause}`);
  const reviewVersion = webhook.conversionReviewVersions.find((v) => reviewVersions.includes(v));
  if (!reviewVersion) throw failed("no supported conversion review versions");
  const uid = randomUUID();
  const review = {
    apiVersion: `apiextensions.k8s.io/${reviewVersion}`,
    kind: "ConversionReview",
    request: { uid, desiredAPIVersion: target, objects },
  };
  let answer: unknown;
  try {
    // Conversion calls have a fixed 30 s timeout (`webhook_converter.go`).
    answer = await postJson(callTarget(store, webhook.clientConfig, 30), review);
  } catch (e) {
    if (e instanceof CallError) throw failed(e.message);
    throw e;
  }
  const converted = convertedObjects(answer, reviewVersion, uid);
  if (typeof converted === "string") throw failed(converted);
  if (converted.length !== objects.length) {
    throw errors.internal(
      `conversion webhook for ${source} returned ${converted.length} objects, expected ${objects.length}`,
    );
  }
  return objects.map((original, i) => {
    const out = converted[i];
    const invalid = (why: string) =>
      errors.internal(
        `conversion webhook for ${source} returned invalid converted object at index ${i}: ${why}`,
      );
    if (!isObject(out)) throw invalid("invalid converted object: not an object");
    const o = out as KubeObject;
    if (o.apiVersion !== target)
      throw invalid(`invalid apiVersion "${String(o.apiVersion)}", expected "${target}"`);
    const om = (isObject(o.metadata) ? o.metadata : {}) as JsonObject;
    const im = original.metadata ?? {};
    const same: [string, unknown, unknown][] = [
      ["kind", original.kind, o.kind],
      ["name", im.name ?? "", om.name ?? ""],
      ["namespace", im.namespace ?? "", om.namespace ?? ""],
      ["UID", im.uid ?? "", om.uid ?? ""],
    ];
    for (const [what, e, a] of same) {
      if (e !== a) throw invalid(`must have the same ${what}: ${String(e)} != ${String(a)}`);
    }
    // Only labels and annotations may change; the rest of metadata is the original's.
    const metadata = deepClone(im);
    for (const key of ["labels", "annotations"] as const) {
      const v = om[key];
      if (isObject(v)) (metadata as JsonObject)[key] = deepClone(v);
      else delete metadata[key];
    }
    return { ...deepClone(o), metadata };
  });
}

/** The response's objects, or what is wrong with it (`getConvertedObjectsFromResponse`). */
function convertedObjects(answer: unknown, version: string, uid: string): unknown[] | string {
  const review = (isObject(answer) ? answer : {}) as JsonObject;
  const expected = `apiextensions.k8s.io/${version}, Kind=ConversionReview`;
  const got = `${String(review.apiVersion ?? "")}, Kind=${String(review.kind ?? "")}`;
  if (version === "v1" && got !== expected) {
    return `expected webhook response of ${expected}, got ${got}`;
  }
  const response = review.response;
  if (!isObject(response)) return "no response provided";
  if (version === "v1" && response.uid !== uid) {
    return `expected response.uid="${uid}", got "${String(response.uid ?? "")}"`;
  }
  const result = (isObject(response.result) ? response.result : {}) as JsonObject;
  if (result.status !== "Success") {
    if (typeof result.message === "string" && result.message) return result.message;
    return `response.result.status was '${String(result.status ?? "")}', not 'Success'`;
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}
