/**
 * `env.serviceAccount(...)`: the identity an operator runs as once deployed, for its tests. The
 * ServiceAccount (and its namespace) is created, the Roles and ClusterRoles of the role files
 * (`config/rbac/role.yaml`, which `opgen manifests` generates from the `@rbac` markers) are
 * applied and bound to it, and a kubeconfig carries a token from TokenRequest, as the pod's
 * projected token would. A manager started with that kubeconfig has exactly the permissions the
 * markers grant, so a missing marker fails the test with the API server's 403. Only API calls
 * are used: the same works against an existing cluster.
 */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import type { KubeObject } from "./api/types.js";
import { readManifestFiles } from "./crd/files.js";
import { applyObjects } from "./install.js";

export interface ServiceAccountOptions {
  /** The ServiceAccount's namespace, created if missing (e.g. `<project>-system`). */
  namespace: string;
  /** The ServiceAccount's name (e.g. `<project>-controller-manager`). */
  name: string;
  /**
   * YAML files of Roles and ClusterRoles to apply and bind to the account, such as
   * `config/rbac/role.yaml`. ClusterRoles are bound cluster-wide; Roles are created and bound in
   * the account's namespace, where config/default's kustomize `namespace:` puts them.
   */
  roleFiles?: string[];
}

export interface ServiceAccountIdentity {
  /** `system:serviceaccount:<namespace>:<name>`. */
  readonly user: string;
  readonly namespace: string;
  readonly name: string;
  /** Authenticates as the account (a TokenRequest token, one hour), to the same server. */
  readonly kubeconfig: KubeConfig;
  /**
   * Aborts at the first request of the account the API server forbids, with an Error carrying
   * kube's message as its reason: pass it as `eventually`'s `signal` to fail at once. On an
   * existing cluster the denials cannot be observed and it never aborts.
   */
  readonly forbidden: AbortSignal;
  /** kube's message for each request of the account forbidden so far, oldest first, once each. */
  readonly forbiddenRequests: readonly string[];
}

const RBAC = "rbac.authorization.k8s.io";
const RBAC_V1 = `${RBAC}/v1`;

/** The Roles and ClusterRoles in `files`, as written; anything else is an error naming it. */
export function readRoleFiles(files: readonly string[]): KubeObject[] {
  const roles: KubeObject[] = [];
  for (const file of files) {
    const docs = readManifestFiles(
      [file],
      () => true,
      (p) => `cannot read role file ${p}: no such file (opgen manifests writes role.yaml)`,
    );
    for (const o of docs) {
      if (o.apiVersion !== RBAC_V1 || (o.kind !== "Role" && o.kind !== "ClusterRole"))
        throw new Error(
          `${file}: ${o.kind ?? "an object without kind"} ${o.metadata?.name ?? ""} is not a ${RBAC_V1} Role or ClusterRole`,
        );
      if (!o.metadata?.name) throw new Error(`${file}: a ${o.kind} without metadata.name`);
      roles.push(o);
    }
  }
  return roles;
}

/**
 * The objects that make `opts`' account hold the roles: its namespace and ServiceAccount, each
 * role (Roles moved into the account's namespace) and one binding per role.
 */
export function serviceAccountObjects(
  opts: ServiceAccountOptions,
  roles: readonly KubeObject[],
): KubeObject[] {
  const { namespace, name } = opts;
  const subjects = [{ kind: "ServiceAccount", name, namespace }];
  const out: KubeObject[] = [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } },
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { namespace, name } },
  ];
  for (const role of roles) {
    const roleName = role.metadata!.name!;
    const roleRef = { apiGroup: RBAC, kind: role.kind, name: roleName };
    if (role.kind === "ClusterRole") {
      out.push(role, {
        apiVersion: RBAC_V1,
        kind: "ClusterRoleBinding",
        metadata: { name: `${roleName}:${namespace}:${name}` },
        roleRef,
        subjects,
      });
    } else {
      out.push(
        { ...role, metadata: { ...role.metadata, namespace } },
        {
          apiVersion: RBAC_V1,
          kind: "RoleBinding",
          metadata: { namespace, name: `${roleName}:${name}` },
          roleRef,
          subjects,
        },
      );
    }
  }
  return out;
}

/** A kubeconfig for the current cluster of `admin` that authenticates with `token` as `user`. */
export function kubeconfigWithToken(admin: KubeConfig, user: string, token: string): KubeConfig {
  const cluster = admin.getCurrentCluster();
  if (!cluster) throw new Error("the admin kubeconfig has no current cluster");
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ name: user, token }],
    contexts: [{ name: "envtest", cluster: cluster.name, user }],
    currentContext: "envtest",
  });
  return kc;
}

/** A denial observed by the server: the user it was for and kube's message. */
export type DenialListener = (user: string, message: string) => void;

/**
 * Creates the account, applies and binds its roles through `admin`, and returns its identity.
 * `onDenial` subscribes to the server's denials (envtest; none on an existing cluster).
 */
export async function bindServiceAccount(
  admin: KubeConfig,
  opts: ServiceAccountOptions,
  onDenial?: (listener: DenialListener) => void,
): Promise<ServiceAccountIdentity> {
  const { namespace, name } = opts;
  const user = `system:serviceaccount:${namespace}:${name}`;
  await applyObjects(admin, serviceAccountObjects(opts, readRoleFiles(opts.roleFiles ?? [])));
  const request = await admin
    .makeApiClient(CoreV1Api)
    .createNamespacedServiceAccountToken({ namespace, name, body: { spec: { audiences: [] } } });
  const token = request.status?.token;
  if (!token) throw new Error(`TokenRequest for ${user} returned no token`);

  const files = opts.roleFiles ?? [];
  const why = files.length > 0 ? `not granted by ${files.join(", ")}` : "no role is bound";
  const denied = new AbortController();
  const forbiddenRequests: string[] = [];
  onDenial?.((who, message) => {
    // A client retrying a refused request (an informer, a requeued reconcile) repeats it.
    if (who !== user || forbiddenRequests.includes(message)) return;
    forbiddenRequests.push(message);
    if (!denied.signal.aborted)
      denied.abort(new Error(`${message} (${why}: add an @rbac marker that grants it)`));
  });
  return {
    user,
    namespace,
    name,
    kubeconfig: kubeconfigWithToken(admin, user, token),
    forbidden: denied.signal,
    forbiddenRequests,
  };
}
