/**
 * The NamespaceLifecycle admission plugin (`plugin/pkg/admission/namespace/lifecycle`): objects
 * are created only in namespaces that exist and are not being terminated.
 */
import { errors } from "@opgen/apimachinery/status";
import { bucketKey } from "../api/registry.js";
import type { JsonObject } from "../api/types.js";
import type { Store } from "../store/store.js";
import { gr } from "./admission.js";
import type { RequestScope } from "./scope.js";

/** Checks NamespaceLifecycle admission for writes into a namespace. */
export function admitNamespace(store: Store, scope: RequestScope, name: string): void {
  if (!scope.info.namespaced || !scope.namespace) return;
  const ns = store.get(bucketKey("", "namespaces"), undefined, scope.namespace);
  if (!ns) throw errors.notFound({ group: "", resource: "namespaces" }, scope.namespace);
  if (
    ns.metadata?.deletionTimestamp ||
    (ns.status as JsonObject | undefined)?.phase === "Terminating"
  ) {
    throw errors.forbidden(
      gr(scope.info),
      name,
      `unable to create new content in namespace ${scope.namespace} because it is being terminated`,
      [
        {
          reason: "NamespaceTerminating",
          message: `namespace ${scope.namespace} is being terminated`,
          field: "metadata.namespace",
        },
      ],
    );
  }
}
