import {
  type AdmissionContext,
  type CustomDefaulter,
  type CustomValidator,
  conversionFor,
  errors,
  field,
  type Manager,
  type Warnings,
  webhookFor,
} from "@opgen/runtime";
import { AppClusterHub } from "../../api/v1/appcluster.conversion.js";
import { type AppCluster, AppClusterKind } from "../../api/v1/appcluster.types.js";
import { AppClusterV2Conversion } from "../../api/v2/appcluster.conversion.js";

/** The largest `spec.size` the validating webhook admits. */
export const MAX_SIZE = 10;

/**
 * Registers the AppCluster webhooks with the manager's webhook server (HTTPS on --webhook-port,
 * 9443 by default): defaulting and validation of v1, and conversion between v2 and the v1 hub.
 */
export function setupAppClusterWebhookWithManager(mgr: Manager): void {
  webhookFor(mgr, AppClusterKind)
    .withDefaulter(new AppClusterCustomDefaulter())
    .withValidator(new AppClusterCustomValidator())
    .complete();
  conversionFor(mgr, AppClusterHub).spoke("v2", AppClusterV2Conversion).complete();
}

/**
 * Labels every AppCluster `tier: web` unless it already has a tier; the webhook server answers
 * the API server with a JSON Patch of that change.
 * @webhook path=/mutate-demo-my-domain-v1-appcluster mutating=true failurePolicy=fail sideEffects=None groups=demo.my.domain resources=appclusters verbs=create;update versions=v1 name=mappcluster-v1.kb.io admissionReviewVersions=v1
 */
export class AppClusterCustomDefaulter implements CustomDefaulter<AppCluster> {
  default(_ctx: AdmissionContext, obj: AppCluster): void {
    obj.metadata ??= {};
    obj.metadata.labels = { tier: "web", ...obj.metadata.labels };
  }
}

/**
 * Refuses an AppCluster whose `spec.size` is above MAX_SIZE, on create and on update, with a
 * 422 Invalid naming `spec.size` (the answer kube-apiserver gives for its own validation).
 * Requests in v2 reach it converted to v1 (matchPolicy Equivalent), so `replicas` is checked too.
 * @webhook path=/validate-demo-my-domain-v1-appcluster mutating=false failurePolicy=fail sideEffects=None groups=demo.my.domain resources=appclusters verbs=create;update versions=v1 name=vappcluster-v1.kb.io admissionReviewVersions=v1
 */
export class AppClusterCustomValidator implements CustomValidator<AppCluster> {
  validateCreate(_ctx: AdmissionContext, obj: AppCluster): Warnings {
    return validateSize(obj);
  }

  validateUpdate(_ctx: AdmissionContext, _oldObj: AppCluster, newObj: AppCluster): Warnings {
    return validateSize(newObj);
  }

  validateDelete(): Warnings {
    return [];
  }
}

function validateSize(obj: AppCluster): Warnings {
  const size = obj.spec?.size ?? 0;
  if (size > MAX_SIZE) {
    throw errors.invalid("AppCluster", AppClusterKind.group, obj.metadata?.name ?? "", [
      field.invalid("spec.size", size, `must be no more than ${MAX_SIZE}`),
    ]);
  }
  return [];
}
