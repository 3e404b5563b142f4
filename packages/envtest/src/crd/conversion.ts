/**
 * A CRD's conversion webhook, which the served resource records so reads and writes in other
 * versions go through it. `spec.conversion` is validated with the rest of the CRD
 * (@opgen/apimachinery/apiextensions).
 */
import { type ConversionWebhook, isObject, type JsonObject } from "../api/types.js";
import type { Crd } from "./crd.js";

/** The conversion webhook of a CRD whose strategy is Webhook. */
export function conversionWebhookOf(crd: Crd): ConversionWebhook | undefined {
  const c = crd.spec?.conversion;
  if (!isObject(c) || c.strategy !== "Webhook" || !isObject(c.webhook)) return undefined;
  const w = c.webhook as JsonObject;
  if (!isObject(w.clientConfig)) return undefined;
  return {
    clientConfig: w.clientConfig as ConversionWebhook["clientConfig"],
    conversionReviewVersions: (w.conversionReviewVersions ?? []) as string[],
  };
}
