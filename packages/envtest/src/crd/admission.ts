/**
 * Admission of CustomResourceDefinition writes: apiextensions defaults, validation with the
 * real messages, and the cleanup finalizer every CRD carries so its instances are deleted
 * before it goes.
 */
import { errors } from "@opgen/apimachinery/status";
import type { KubeObject } from "../api/types.js";
import { crdCleanupFinalizer } from "../controllers/crd-controller.js";
import type { AdmissionHook } from "../rest/admission.js";
import type { RequestScope } from "../rest/scope.js";
import { defaultConversion, validateConversion } from "./conversion.js";
import { type Crd, defaultCrd, validateCrd } from "./crd.js";

export const crdAdmission: AdmissionHook = {
  admit(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (
      scope.info.group !== "apiextensions.k8s.io" ||
      scope.info.resource !== "customresourcedefinitions"
    )
      return;
    if (scope.subresource === "status") return;
    const crd = obj as Crd;
    defaultCrd(crd);
    defaultConversion(crd);
    const errs = [...validateCrd(crd, old as Crd | undefined), ...validateConversion(crd)];
    if (old) {
      const o = old as Crd;
      if (o.spec?.group !== crd.spec?.group) {
        errs.push({
          type: "FieldValueInvalid",
          field: "spec.group",
          value: crd.spec?.group ?? "",
          detail: "field is immutable",
        });
      }
      if (o.spec?.scope !== crd.spec?.scope) {
        errs.push({
          type: "FieldValueInvalid",
          field: "spec.scope",
          value: crd.spec?.scope ?? "",
          detail: "field is immutable",
        });
      }
      for (const sv of o.status?.storedVersions ?? []) {
        if (!crd.spec?.versions?.some((v) => v.name === sv)) {
          errs.push({
            type: "FieldValueInvalid",
            field: "status.storedVersions",
            value: o.status?.storedVersions ?? [],
            detail: `must have the storage version ${sv}`,
          });
        }
      }
    }
    if (errs.length > 0) {
      throw errors.invalid(
        "CustomResourceDefinition",
        "apiextensions.k8s.io",
        crd.metadata?.name ?? "",
        errs,
      );
    }
    if (!old) {
      if (!crd.metadata) crd.metadata = {};
      const m = crd.metadata;
      const f = m.finalizers ?? [];
      if (!f.includes(crdCleanupFinalizer)) f.push(crdCleanupFinalizer);
      m.finalizers = f;
      crd.status = { conditions: [], acceptedNames: { plural: "", kind: "" }, storedVersions: [] };
    }
  },
};
