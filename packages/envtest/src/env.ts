/**
 * `startTestEnv`: the public entry point. Starts an embedded API server (or, with
 * `USE_EXISTING_CLUSTER=true`, takes the cluster of the current kubeconfig), installs CRDs and
 * waits until they are Established, writes a kubeconfig, and hands back a `TestEnv`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import type { PodSecurityOptions } from "./admission/plugins/pod-security/admission.js";
import type { KubeObject } from "./api/types.js";
import { crdBucket } from "./controllers/crd-controller.js";
import { readCrdFiles } from "./crd/files.js";
import { type ExampleKind, type ExampleValues, exampleObject } from "./example.js";
import { createFaults, type Faults } from "./faults.js";
import { installFeatures } from "./features.js";
import { forbidden } from "./http/filters/authorization.js";
import { applyObjects, crdsEstablished, isEstablished } from "./install.js";
import { kubeConfigOf, writeKubeconfig } from "./kubeconfig.js";
import {
  prepareWebhookServing,
  readConversionPatches,
  readWebhookManifests,
  rewriteForLocalServing,
  type WebhookServing,
  type WebhookServingOptions,
  withConversionPatch,
} from "./local-serving.js";
import { ApiServer } from "./server.js";
import {
  bindServiceAccount,
  type DenialListener,
  type ServiceAccountIdentity,
  type ServiceAccountOptions,
} from "./service-account.js";

export interface TestEnvOptions {
  /** CRD manifests (files or directories) installed and awaited Established. */
  crdDirectoryPaths?: string[];
  /** Garbage collection of dependents and namespace cleanup (default true, as a real cluster). */
  gc?: boolean;
  /** Simulate the kubelet and built-in controllers: pods Ready, workloads report ready replicas. */
  simulate?: boolean;
  /** "rbac" evaluates Roles/ClusterRoles/bindings for every non-admin request (default "none"). */
  auth?: "none" | "rbac";
  /** Port to listen on (default: a random free port). */
  port?: number;
  /**
   * The Kubernetes minor the server is (`major.minor`; default: the catalog's default minor): its
   * resources, discovery, OpenAPI, `/version` and behaviour. An unknown minor is an error naming
   * the known ones.
   */
  kubernetesVersion?: string;
  /**
   * Feature gates on or off instead of the minor's defaults, as kube-apiserver's
   * `--feature-gates` (`{ CRDValidationRatcheting: false }`); a gate the minor lacks is an error.
   */
  featureGates?: Readonly<Record<string, boolean>>;
  /** Where to write the kubeconfig (default: a temporary file removed by stop()). */
  kubeconfigPath?: string;
  /** kube-apiserver's `--max-requests-inflight` (default 400); beyond it requests get 429. */
  maxRequestsInFlight?: number;
  /** kube-apiserver's `--max-mutating-requests-inflight` (default 200). */
  maxMutatingRequestsInFlight?: number;
  /**
   * kube-apiserver's PodSecurity admission configuration: the policy of namespaces without
   * `pod-security.kubernetes.io/*` labels (default privileged) and the usernames, runtime
   * classes and namespaces exempt from it.
   */
  podSecurity?: PodSecurityOptions;
  /**
   * Webhooks served by the test process (controller-runtime's WebhookInstallOptions): a CA and
   * serving certificate are minted into `env.webhook.certDir`, and the configurations under
   * `paths` and the CRDs with conversion webhooks (their own `spec.conversion`, or a conversion
   * patch under `paths` such as `config/crd/patches`) are installed pointing at
   * `https://<localServingHost>:<localServingPort>` (127.0.0.1 and a free port by default).
   */
  webhooks?: WebhookServingOptions;
}

/** Where the operator's webhook server must listen for the installed webhooks to reach it. */
export interface TestEnvWebhook {
  host: string;
  port: number;
  /** `tls.crt` and `tls.key` (0600) signed by the CA in caBundle; removed by stop(). */
  certDir: string;
  caBundle: Buffer;
  url(path: string): string;
}

export interface TestEnv {
  url: string;
  kubeconfig: KubeConfig;
  kubeconfigPath: string;
  adminToken: string;
  tokenFor(user: string, groups?: string[]): string;
  kubeconfigFor(user: string, groups?: string[]): KubeConfig;
  /**
   * The operator's identity: creates the ServiceAccount (and its namespace), applies the Roles
   * and ClusterRoles of `roleFiles` (e.g. `config/rbac/role.yaml`) bound to it, and returns a
   * kubeconfig with its TokenRequest token and the requests the server forbade it. Needs
   * `auth: "rbac"` (without it every request is allowed and the roles prove nothing).
   */
  serviceAccount(options: ServiceAccountOptions): Promise<ServiceAccountIdentity>;
  /**
   * A custom resource of `kind` for a test: `values` (metadata, the fields the test cares about)
   * with every field the CRD installed now requires filled with a valid value, so the test keeps
   * passing when `opgen manifests` makes a field required. What `values` sets is kept as given.
   */
  example<T extends object>(kind: ExampleKind<T>, values?: ExampleValues<T>): Promise<T>;
  faults: Faults;
  /** Set when started with the `webhooks` option. */
  webhook?: TestEnvWebhook;
  /**
   * Reads the CRD directories and webhook paths given at start again and creates or replaces
   * what they hold (CRDs pointed at the local webhook server as at start), then waits until the
   * CRDs are Established: how `opgen dev` picks up regenerated manifests without a restart.
   */
  reinstall(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function startTestEnv(options: TestEnvOptions = {}): Promise<TestEnv> {
  if (process.env.USE_EXISTING_CLUSTER === "true") return useExistingCluster(options);
  const server = new ApiServer({
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.maxRequestsInFlight !== undefined
      ? { maxRequestsInFlight: options.maxRequestsInFlight }
      : {}),
    ...(options.maxMutatingRequestsInFlight !== undefined
      ? { maxMutatingRequestsInFlight: options.maxMutatingRequestsInFlight }
      : {}),
    ...(options.podSecurity !== undefined ? { podSecurity: options.podSecurity } : {}),
    ...(options.kubernetesVersion !== undefined
      ? { kubernetesVersion: options.kubernetesVersion }
      : {}),
    ...(options.featureGates !== undefined ? { featureGates: options.featureGates } : {}),
    auth: options.auth ?? "none",
  });
  await installFeatures(server, { gc: options.gc ?? true, simulate: options.simulate ?? false });
  const faults = createFaults(server);
  const denialListeners = new Set<DenialListener>();
  const authorize = server.authorize;
  if (authorize) {
    // Every denial reaches the identities of serviceAccount(), whatever the client does with
    // its 403 (an informer retries, a reconciler may log and requeue).
    server.authorize = (a) => {
      const denied = authorize(a);
      if (denied !== undefined && denialListeners.size > 0) {
        const message = forbidden(a, denied).message;
        for (const listener of denialListeners) listener(a.user.name, message);
      }
      return denied;
    };
    // And every write refused past authorization (a Role granting more than its writer holds).
    server.forbade = (user, message) => {
      for (const listener of denialListeners) listener(user, message);
    };
  }
  await server.listen(options.port ?? 0);

  // A start that fails after listening releases the port, the controllers and the temporary
  // folder before it rejects, so a caller (or `opgen envtest`) is never left hanging.
  let tmpDir: string | undefined;
  let kubeconfigPath = options.kubeconfigPath;
  const connection = () => ({
    server: server.url,
    caPem: server.tls.caPem,
    token: server.auth.adminToken,
  });
  let serving: WebhookServing | undefined;
  try {
    // After listening: the free port picked for the webhook server cannot be the API server's.
    if (options.webhooks) serving = await prepareWebhookServing(options.webhooks);
    const { crds, webhooks } = manifests(options, serving);
    for (const crd of crds) {
      server.systemCreate("apiextensions.k8s.io", "v1", "customresourcedefinitions", crd);
    }
    for (const config of webhooks) {
      const plural = `${String(config.kind).toLowerCase()}s`;
      server.systemCreate("admissionregistration.k8s.io", "v1", plural, config);
    }
    const names = server
      .list("apiextensions.k8s.io", "customresourcedefinitions")
      .map((c) => c.metadata?.name ?? "");
    await waitFor(
      () => names.every((n) => isEstablished(server.store.get(crdBucket, undefined, n))),
      `CRDs ${names.join(", ")} to be Established`,
    );
    if (!kubeconfigPath) {
      tmpDir = mkdtempSync(join(tmpdir(), "envtest-"));
      kubeconfigPath = join(tmpDir, "kubeconfig");
    }
    writeKubeconfig(kubeconfigPath, connection());
  } catch (e) {
    await server.close();
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
    serving?.cleanup();
    throw e;
  }

  return {
    url: server.url,
    kubeconfig: kubeConfigOf(connection()),
    kubeconfigPath,
    adminToken: server.auth.adminToken,
    tokenFor: (user, groups) => server.auth.tokenFor(user, groups),
    kubeconfigFor: (user, groups) =>
      kubeConfigOf({ ...connection(), token: server.auth.tokenFor(user, groups), user }),
    async serviceAccount(account) {
      if (!authorize)
        throw new Error(
          'serviceAccount() needs startTestEnv({ auth: "rbac" }): without it every request is allowed',
        );
      return bindServiceAccount(kubeConfigOf(connection()), account, (l) => denialListeners.add(l));
    },
    example: (kind, values) => exampleObject(kubeConfigOf(connection()), kind, values),
    faults,
    ...(serving ? { webhook: webhookOf(serving) } : {}),
    reinstall: () => reinstall(kubeConfigOf(connection()), options, serving),
    async restart() {
      const port = server.port;
      await server.close();
      await server.listen(port);
    },
    async stop() {
      denialListeners.clear();
      await server.close();
      if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
      serving?.cleanup();
    },
  };
}

/** The manifests of `options` as installed: CRDs with their conversion patches, pointed at `serving`. */
function manifests(
  options: TestEnvOptions,
  serving: WebhookServing | undefined,
): { crds: KubeObject[]; webhooks: KubeObject[] } {
  const paths = options.webhooks?.paths ?? [];
  const patches = readConversionPatches(paths);
  const crds = readCrdFiles(options.crdDirectoryPaths ?? []).map((c) =>
    serving ? rewriteForLocalServing(withConversionPatch(c, patches), serving) : c,
  );
  const webhooks = serving
    ? readWebhookManifests(paths).map((o) => rewriteForLocalServing(o, serving))
    : [];
  return { crds, webhooks };
}

async function reinstall(
  kc: KubeConfig,
  options: TestEnvOptions,
  serving: WebhookServing | undefined,
): Promise<void> {
  const { crds, webhooks } = manifests(options, serving);
  await applyObjects(kc, crds);
  await applyObjects(kc, webhooks);
  await waitFor(() => crdsEstablished(kc, crds), "CRDs to be Established", 30_000);
}

function webhookOf(s: WebhookServing): TestEnvWebhook {
  return { host: s.host, port: s.port, certDir: s.certDir, caBundle: s.caBundle, url: s.url };
}

/** USE_EXISTING_CLUSTER=true: install the CRDs into the current cluster and start nothing. */
async function useExistingCluster(options: TestEnvOptions): Promise<TestEnv> {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  // client-node types metadata timestamps as Date; CRD manifests carry none, so the shapes agree.
  const serving = options.webhooks ? await prepareWebhookServing(options.webhooks) : undefined;
  await reinstall(kc, options, serving);
  const unsupported = (what: string) => (): never => {
    throw new Error(`${what} is not available with USE_EXISTING_CLUSTER=true`);
  };
  const cluster = kc.getCurrentCluster();
  return {
    url: cluster?.server ?? "",
    kubeconfig: kc,
    kubeconfigPath:
      process.env.KUBECONFIG?.split(":")[0] ?? join(process.env.HOME ?? "", ".kube", "config"),
    adminToken: kc.getCurrentUser()?.token ?? "",
    tokenFor: unsupported("tokenFor"),
    kubeconfigFor: unsupported("kubeconfigFor"),
    // The cluster's own RBAC decides; its denials are only seen by the client (and logged).
    serviceAccount: (account) => bindServiceAccount(kc, account),
    example: (kind, values) => exampleObject(kc, kind, values),
    faults: {
      dropWatches: unsupported("faults.dropWatches"),
      expireHistory: unsupported("faults.expireHistory"),
      failNext: unsupported("faults.failNext"),
      delay: unsupported("faults.delay"),
      reset: () => {},
    },
    ...(serving ? { webhook: webhookOf(serving) } : {}),
    reinstall: () => reinstall(kc, options, serving),
    restart: async () => unsupported("restart")(),
    // Like controller-runtime, CRDs stay installed in an existing cluster.
    stop: async () => {
      serving?.cleanup();
    },
  };
}
