/**
 * kube-controller-manager's root CA publisher (`rootcacertpublisher`): every namespace has a
 * ConfigMap `kube-root-ca.crt` whose `ca.crt` is the CA bundle that verifies the API server, so a
 * pod's projected service-account volume (or a test reading it) finds what in-cluster clients
 * trust. The controller owns its content: a changed `ca.crt`, extra data keys or a missing
 * description annotation are synced back; other annotations and labels are left alone.
 */
import { type JsonObject, type KubeObject, objectAt } from "../api/types.js";
import type { NamespaceObject } from "./namespace-objects.js";

export const ROOT_CA_CONFIGMAP = "kube-root-ca.crt";
const DESCRIPTION_ANNOTATION = "kubernetes.io/description";
/** The annotation text kube-controller-manager sets (rootcacertpublisher's Description). */
const DESCRIPTION =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
  "No other usage is guaranteed across distributions of Kubernetes clusters.";

export function rootCaConfigMap(caPem: string): NamespaceObject {
  const data = (): JsonObject => ({ "ca.crt": caPem });
  return {
    group: "",
    version: "v1",
    resource: "configmaps",
    controller: "root-ca-cert-publisher",
    name: ROOT_CA_CONFIGMAP,
    build: (namespace) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: ROOT_CA_CONFIGMAP,
        namespace,
        annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
      },
      data: data(),
    }),
    // The publisher compares the whole data map and only asks the annotation to be non-empty.
    drifted: (cm: KubeObject) => {
      const d = objectAt(cm.data);
      const keys = Object.keys(d);
      return (
        keys.length !== 1 ||
        d["ca.crt"] !== caPem ||
        !cm.metadata?.annotations?.[DESCRIPTION_ANNOTATION]
      );
    },
    restore: (cm: KubeObject) => {
      cm.data = data();
      const meta = cm.metadata ?? {};
      meta.annotations = { ...(meta.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION };
      cm.metadata = meta;
    },
  };
}
