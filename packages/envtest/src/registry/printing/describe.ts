/**
 * Column descriptions as kube's printers write them: `SomeType{}.SwaggerDoc()["field"]`, which is
 * the field's description in the 1.32 OpenAPI definitions the catalog carries. Where a printer
 * cites a beta type 1.32 no longer serves (extensions/v1beta1, apps/v1beta1, ...), the GA type's
 * description stands in for it; a key the type does not have is kube's empty description.
 */
import { description } from "@opgen/apimachinery/catalog";

/** The description of `field` of the definition `io.k8s.<type>` (`api.core.v1.PodSpec`). */
export function doc(type: string, field: string): string {
  return description(`io.k8s.${type}`, field) ?? "";
}
