/**
 * CustomResourceDefinitions (`apiextensions-apiserver/pkg/registry/customresourcedefinition`):
 * apiextensions defaults, validation with the real messages (crd/crd.ts, crd/conversion.ts), the
 * fields an update may not change, and the cleanup finalizer every CRD carries so its instances
 * are deleted before it goes. A status write is the CRD controller's: it is not validated again.
 */
import type { FieldError } from "@opgen/apimachinery/status";
import type { KubeObject } from "../../api/types.js";
import { defaultConversion, validateConversion } from "../../crd/conversion.js";
import { type Crd, defaultCrd, validateCrd } from "../../crd/crd.js";
import type { ResourceStrategy } from "../strategy.js";
import { crdCleanupFinalizer } from "./cleanup-finalizer.js";

/** What an update may not change: the group, the scope, and the versions already stored. */
function immutableErrors(crd: Crd, old: Crd): FieldError[] {
  const errs: FieldError[] = [];
  if (old.spec?.group !== crd.spec?.group) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.group",
      value: crd.spec?.group ?? "",
      detail: "field is immutable",
    });
  }
  if (old.spec?.scope !== crd.spec?.scope) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.scope",
      value: crd.spec?.scope ?? "",
      detail: "field is immutable",
    });
  }
  for (const sv of old.status?.storedVersions ?? []) {
    if (!crd.spec?.versions?.some((v) => v.name === sv)) {
      errs.push({
        type: "FieldValueInvalid",
        field: "status.storedVersions",
        value: old.status?.storedVersions ?? [],
        detail: `must have the storage version ${sv}`,
      });
    }
  }
  return errs;
}

export const customResourceDefinitions: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o: KubeObject) {
    defaultCrd(o as Crd);
    defaultConversion(o as Crd);
  },
  prepareForCreate(o: KubeObject) {
    const crd = o as Crd;
    if (!crd.metadata) crd.metadata = {};
    const m = crd.metadata;
    const f = m.finalizers ?? [];
    if (!f.includes(crdCleanupFinalizer)) f.push(crdCleanupFinalizer);
    m.finalizers = f;
    crd.status = { conditions: [], acceptedNames: { plural: "", kind: "" }, storedVersions: [] };
  },
  validateWrite(o, old, scope) {
    if (scope.subresource === "status") return [];
    const crd = o as Crd;
    return [
      ...validateCrd(crd, old as Crd | undefined),
      ...validateConversion(crd),
      ...(old ? immutableErrors(crd, old as Crd) : []),
    ];
  },
};
