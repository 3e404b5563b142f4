/**
 * Column descriptions as kube's printers write them: `SomeType{}.SwaggerDoc()["field"]`, which is
 * the field's description in the OpenAPI definitions of the serving minor's catalog. A printer
 * names the field (`doc`); the table writes its description in the server's catalog
 * (`columnDescription`), so one printer serves every minor. Where a printer cites a beta type
 * the minor no longer serves (extensions/v1beta1, apps/v1beta1, ...), the GA type's description
 * stands in for it; a key the type does not have is kube's empty description.
 */
import type { Catalog } from "@opgen/apimachinery/catalog";
import type { FieldDoc } from "../../api/resource.js";

/** The description of `field` of the definition `io.k8s.<type>` (`api.core.v1.PodSpec`). */
export function doc(type: string, field: string): FieldDoc {
  return { definition: `io.k8s.${type}`, field };
}

/** A column's description as the catalog words it. */
export function columnDescription(description: string | FieldDoc, catalog: Catalog): string {
  return typeof description === "string"
    ? description
    : (catalog.description(description.definition, description.field) ?? "");
}
