/**
 * The resource an accepted CustomResourceDefinition serves: one definition built per CRD, as
 * apiextensions-apiserver builds a `crdInfo` with its storage, from the CRD's names, versions
 * (schemas, printer columns, status and scale subresources) and selectable fields, with the
 * custom resources' strategy (custom-resources.ts).
 */

import type { KubeVersion } from "@opgen/apimachinery/version";
import { compareVersions } from "../../api/registry.js";
import { getPath, isObject, type ResourceInfo, type ResourceVersionInfo } from "../../api/types.js";
import type { Crd } from "../../crd/crd.js";
import { createdDescription } from "../printing.js";
import { customResources } from "./custom-resources.js";

/** The served resource of an accepted CRD (versions in preference order). */
export function customResourceFromCrd(crd: Crd, kube: KubeVersion): ResourceInfo {
  const spec = crd.spec;
  const names = crd.status?.acceptedNames?.plural ? crd.status.acceptedNames : spec.names;
  const versions: ResourceVersionInfo[] = [...spec.versions]
    .sort((a, b) => compareVersions(a.name, b.name))
    .map((v) => ({
      name: v.name,
      served: v.served,
      storage: v.storage,
      ...(v.deprecated ? { deprecated: true } : {}),
      ...(v.deprecationWarning ? { deprecationWarning: v.deprecationWarning } : {}),
      ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
      printerColumns: v.additionalPrinterColumns?.length
        ? v.additionalPrinterColumns
        : [
            {
              name: "Age",
              type: "date",
              jsonPath: ".metadata.creationTimestamp",
              description: createdDescription,
              priority: 0,
            },
          ],
      status: isObject(v.subresources?.status),
      ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
    }));
  // selectableFields (GA since 1.32) become field selector labels; the storage version's set is
  // used for every version, as conversion None keeps the same fields.
  const storage = spec.versions.find((v) => v.storage) ?? spec.versions[0];
  const fieldLabels: NonNullable<ResourceInfo["fieldLabels"]> = {};
  for (const f of storage?.selectableFields ?? []) {
    const path = f.jsonPath.replace(/^\./, "");
    fieldLabels[path] = (o) => {
      const v = getPath(o, f.jsonPath);
      return v === undefined || v === null ? undefined : String(v);
    };
  }
  return {
    kube,
    group: spec.group,
    resource: names.plural,
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    singular: names.singular ?? names.kind.toLowerCase(),
    namespaced: spec.scope === "Namespaced",
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    versions,
    custom: true,
    generation: true,
    unconditionalUpdate: false,
    returnDeletedObject: false,
    crdName: crd.metadata?.name ?? "",
    ...(Object.keys(fieldLabels).length ? { fieldLabels } : {}),
    strategy: customResources,
  };
}
