/**
 * A CRD's `spec.conversion` (`validation.go` validateCustomResourceConversion): strategy None or
 * Webhook; Webhook needs a clientConfig with exactly one of url/service and a known
 * ConversionReview version; None forbids both.
 */
import { webhookClientConfigErrors } from "../admissionregistration/client-config.js";
import { isObject, type JsonObject } from "../schema/json.js";
import { type FieldError, goStrings } from "../status/index.js";
import type { CustomResourceDefinition } from "./types.js";

const reviewVersions = ["v1", "v1beta1"];

export function conversionErrors(crd: CustomResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  const c = crd.spec?.conversion;
  if (!isObject(c)) return errs;
  const strategy = c.strategy;
  if (strategy !== "None" && strategy !== "Webhook") {
    errs.push({
      type: "FieldValueNotSupported",
      field: "spec.conversion.strategy",
      value: String(strategy ?? ""),
      detail: 'supported values: "None", "Webhook"',
    });
    return errs;
  }
  const webhook = isObject(c.webhook) ? (c.webhook as JsonObject) : undefined;
  if (strategy === "None") {
    if (webhook?.clientConfig !== undefined) {
      errs.push({
        type: "FieldValueForbidden",
        field: "spec.conversion.webhook.clientConfig",
        detail: "should not be set when strategy is not set to Webhook",
      });
    }
    if (webhook?.conversionReviewVersions !== undefined) {
      errs.push({
        type: "FieldValueForbidden",
        field: "spec.conversion.webhook.conversionReviewVersions",
        detail: "should not be set when strategy is not set to Webhook",
      });
    }
    return errs;
  }
  if (!isObject(webhook?.clientConfig)) {
    errs.push({
      type: "FieldValueRequired",
      field: "spec.conversion.webhook.clientConfig",
      detail: "required when strategy is set to Webhook",
    });
  } else {
    errs.push(
      ...webhookClientConfigErrors(webhook.clientConfig, "spec.conversion.webhook.clientConfig"),
    );
  }
  const versions = webhook?.conversionReviewVersions;
  if (!Array.isArray(versions) || versions.length === 0) {
    errs.push({
      type: "FieldValueRequired",
      field: "spec.conversion.webhook.conversionReviewVersions",
      detail: "must specify one of v1, v1beta1",
    });
  } else if (!versions.some((v) => reviewVersions.includes(String(v)))) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.conversion.webhook.conversionReviewVersions",
      value: goStrings(versions),
      detail: "must include at least one of v1, v1beta1",
    });
  }
  if (crd.spec?.preserveUnknownFields === true) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.conversion.strategy",
      value: "Webhook",
      detail: "must be None if spec.preserveUnknownFields is true",
    });
  }
  return errs;
}
