/**
 * The NamespaceLifecycle admission plugin (`apiserver: pkg/admission/plugin/namespace/lifecycle`),
 * first of the mutating phase: objects are created only in namespaces that exist and are not
 * being terminated. (The namespaces that may never be deleted are the namespace strategy's.)
 */
import { errors } from "@opgen/apimachinery/status";
import { bucketKey } from "../../api/registry.js";
import { gr, type JsonObject, type KubeObject, type RequestScope } from "../../api/types.js";
import type { Store } from "../../store/store.js";
import type { AdmissionPlugin } from "../chain.js";

export function namespaceLifecycle(store: Store): AdmissionPlugin {
  return {
    name: "NamespaceLifecycle",
    admit(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
      if (!old) admitCreate(store, scope, obj.metadata?.name ?? "");
    },
  };
}

/** Checks a create into a namespace: it exists and is not terminating. */
function admitCreate(store: Store, scope: RequestScope, name: string): void {
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
