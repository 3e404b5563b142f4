/**
 * Which fields a resource can be selected by, as kube-apiserver decides it: `metadata.name`
 * everywhere, `metadata.namespace` for namespaced resources, plus the resource's own field labels
 * (a strategy's `fieldLabels`, a CRD's selectableFields). Parsing is apimachinery's.
 */
import type { FieldSelector } from "@opgen/apimachinery/selectors";
import { errors } from "@opgen/apimachinery/status";
import type { KubeObject, ResourceInfo } from "../api/types.js";

/** A matcher of stored objects for a parsed selector; 400 for a field the resource lacks. */
export function fieldMatcher(sel: FieldSelector, info: ResourceInfo): (obj: KubeObject) => boolean {
  const getters = new Map<string, (o: KubeObject) => string | undefined>();
  for (const { field } of sel.requirements) {
    if (field === "metadata.name") getters.set(field, (o) => o.metadata?.name);
    else if (field === "metadata.namespace" && info.namespaced) {
      getters.set(field, (o) => o.metadata?.namespace);
    } else if (info.fieldLabels?.[field]) getters.set(field, info.fieldLabels[field]!);
    // A kind with field labels of its own registers its own conversion function (Pod's, Secret's,
    // Event's in pkg/apis/core/v1/conversion.go; a CRD's crConverter), whose error names only
    // the label; the others fall back to DefaultMetaV1FieldSelectorConversion
    // (staging/src/k8s.io/apimachinery/pkg/runtime/conversion.go).
    else if (info.custom || info.fieldLabels) {
      throw errors.badRequest(`field label not supported: ${field}`);
    } else {
      throw errors.badRequest(
        `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    }
  }
  return (obj) => sel.matches((field) => getters.get(field)!(obj));
}
