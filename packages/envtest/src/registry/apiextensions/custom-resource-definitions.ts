/**
 * CustomResourceDefinitions (`apiextensions-apiserver/pkg/registry/customresourcedefinition`):
 * apiextensions defaults and validation, create and update, from @opgen/apimachinery/apiextensions
 * (the one CRD validator, which `opgen manifests` runs too), and the cleanup finalizer every CRD
 * carries so its instances are deleted before it goes. A status write is the CRD controller's:
 * it is not validated again.
 */
import {
  defaultCustomResourceDefinition,
  validateCustomResourceDefinition,
} from "@opgen/apimachinery/apiextensions";
import type { KubeObject } from "../../api/types.js";
import type { Crd } from "../../crd/crd.js";
import type { ResourceStrategy } from "../strategy.js";
import { crdCleanupFinalizer } from "./cleanup-finalizer.js";

export const customResourceDefinitions: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o: KubeObject) {
    defaultCustomResourceDefinition(o as Crd);
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
    return validateCustomResourceDefinition(o as Crd, old as Crd | undefined);
  },
};
