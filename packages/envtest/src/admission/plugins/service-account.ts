/**
 * The ServiceAccount admission plugin for pods (`plugin/pkg/admission/serviceaccount`): a new pod
 * runs as `default` unless it names an account, the account must exist, and unless the pod or
 * the account turns automounting off, the pod gets the projected `kube-api-access-*` volume
 * (a bound token, the cluster CA from `kube-root-ca.crt`, the namespace) mounted read-only at
 * /var/run/secrets/kubernetes.io/serviceaccount in every container.
 */
import { errors } from "@opgen/apimachinery/status";
import { generateName } from "../../api/meta.js";
import { bucketKey } from "../../api/registry.js";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { RequestScope } from "../../rest/scope.js";
import type { Store } from "../../store/store.js";
import type { AdmissionPlugin } from "../chain.js";

const SERVICE_ACCOUNTS = bucketKey("", "serviceaccounts");
const MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

function tokenVolume(name: string): JsonObject {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        {
          configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] },
        },
        {
          downwardAPI: {
            items: [
              {
                path: "namespace",
                fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" },
              },
            ],
          },
        },
      ],
      defaultMode: 420,
    },
  };
}

export class ServiceAccountAdmission implements AdmissionPlugin {
  readonly name = "ServiceAccount";
  constructor(private readonly store: Store) {}

  admit(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (old || scope.subresource !== undefined) return;
    if (scope.info.group !== "" || scope.info.resource !== "pods") return;
    const spec = (isObject(obj.spec) ? obj.spec : {}) as JsonObject;
    obj.spec = spec;
    const name = (spec.serviceAccountName || spec.serviceAccount || "default") as string;
    spec.serviceAccountName = name;
    spec.serviceAccount = name;
    const ns = obj.metadata?.namespace ?? scope.namespace ?? "";
    const sa = this.store.get(SERVICE_ACCOUNTS, ns, name);
    if (!sa)
      throw errors.forbidden(
        { group: "", resource: "pods" },
        obj.metadata?.name ?? "",
        `error looking up service account ${ns}/${name}: serviceaccount "${name}" not found`,
      );
    const automount =
      spec.automountServiceAccountToken ??
      (sa.automountServiceAccountToken as boolean | undefined) ??
      true;
    if (automount === false) return;
    const containers = [
      ...((spec.initContainers ?? []) as JsonObject[]),
      ...((spec.containers ?? []) as JsonObject[]),
    ];
    const mounted = containers.some((c) =>
      ((c.volumeMounts ?? []) as JsonObject[]).some((m) => m.mountPath === MOUNT_PATH),
    );
    if (mounted) return;
    const volumeName = generateName("kube-api-access-");
    spec.volumes = [...((spec.volumes ?? []) as JsonObject[]), tokenVolume(volumeName)];
    for (const c of containers) {
      c.volumeMounts = [
        ...((c.volumeMounts ?? []) as JsonObject[]),
        { name: volumeName, readOnly: true, mountPath: MOUNT_PATH },
      ];
    }
  }
}
