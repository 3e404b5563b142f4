/**
 * One embedded API server: the composition root that wires the registry, the store, the REST
 * verbs, admission, controllers and the HTTPS front, plus its lifecycle (listen, stop, restart
 * on the same port with state kept). No global state: any number can run in one process.
 */

import { createServer, type Server } from "node:https";
import type { Socket } from "node:net";
import { errors } from "@opgen/apimachinery/status";
import { type KubeVersion, kubeVersion } from "@opgen/apimachinery/version";
import { AdmissionChain } from "./admission/chain.js";
import { WebhookSource } from "./admission/configurations.js";
import { WebhookAdmission } from "./admission/dispatcher.js";
import { admissionPlugins } from "./admission/plugins/index.js";
import type { PodSecurityOptions } from "./admission/plugins/pod-security/admission.js";
import { PolicyAdmission } from "./admission/policy/plugin.js";
import { PolicyStatusController } from "./admission/policy/status.js";
import { bucketKey, Registry } from "./api/registry.js";
import type { KubeObject } from "./api/types.js";
import { RbacAuthorizer } from "./auth/rbac.js";
import { ServiceAccountTokens } from "./auth/service-account-tokens.js";
import { TokenAuthenticator } from "./auth/tokens.js";
import { bootstrapObjects } from "./bootstrap.js";
import { InternalClient } from "./client/api-client.js";
import { apiserverIdentity, controllerIdentity } from "./client/identities.js";
import { ClusterRoleAggregationController } from "./controllers/clusterrole-aggregation.js";
import { CrdController } from "./controllers/crd-controller.js";
import { CsrSigningController } from "./controllers/csr-signer.js";
import { DisruptionController } from "./controllers/disruption.js";
import { EndpointsController } from "./controllers/endpoints.js";
import { NamespaceObjectsController } from "./controllers/namespace-objects.js";
import { ResourceQuotaController } from "./controllers/resource-quota.js";
import { rootCaConfigMap } from "./controllers/root-ca-publisher.js";
import { defaultServiceAccount } from "./controllers/service-accounts.js";
import { type TlsMaterial, tlsMaterial } from "./http/certs.js";
import { type Attributes, createHandler, type HandlerDeps } from "./http/handler.js";
import { ApiServerMetrics } from "./http/metrics.js";
import { builtinResources } from "./registry/index.js";
import { serverSideApply } from "./rest/apply.js";
import { ObjectRest } from "./rest/objects.js";
import { Store } from "./store/store.js";

export interface ApiServerOptions {
  port?: number;
  /**
   * The Kubernetes minor to serve (`major.minor`): its resources, discovery, OpenAPI, `/version`
   * and behaviour. Default: the catalog's default minor (`@opgen/apimachinery/version`).
   */
  kubernetesVersion?: string;
  /** Feature gates set on or off instead of the minor's defaults, as `--feature-gates` does. */
  featureGates?: Readonly<Record<string, boolean>>;
  /** Events kept per resource for watch replay. */
  historyLimit?: number;
  /** `--max-requests-inflight` (400) and `--max-mutating-requests-inflight` (200). */
  maxRequestsInFlight?: number;
  maxMutatingRequestsInFlight?: number;
  /** The PodSecurity admission configuration: default policy and exemptions. */
  podSecurity?: PodSecurityOptions;
  /**
   * "rbac" authorizes every non-admin request by Roles, ClusterRoles and their bindings, and
   * checks RBAC writes for escalation; "none" (default) allows everything (AlwaysAllow).
   */
  auth?: "none" | "rbac";
}

/** A controller that runs inside the server (GC, namespace lifecycle, simulation). */
export interface Controller {
  start(): void;
  stop(): void;
}

export class ApiServer {
  /** The Kubernetes version this server serves, with its feature gates. */
  readonly kube: KubeVersion;
  readonly registry: Registry;
  readonly store: Store;
  readonly rest: ObjectRest;
  /** The API client of the components inside the server (controllers, simulated node). */
  readonly client: InternalClient;
  readonly auth = new TokenAuthenticator();
  readonly tls: TlsMaterial = tlsMaterial();
  readonly watches = new Set<{ close(): void }>();
  readonly controllers: Controller[] = [];
  readonly metrics = new ApiServerMetrics();
  /** RBAC's rules: the authorizer with `auth: "rbac"`, and the access reviews always. */
  readonly rbac: RbacAuthorizer;
  private readonly serviceAccountTokens: ServiceAccountTokens;
  private readonly disruption: DisruptionController;
  /** Hooks for fault injection and authorization, set by the environment. */
  before?: (attrs: Attributes) => Promise<void>;
  authorize?: (attrs: Attributes) => string | undefined;
  /**
   * The same decision for checks that refuse nothing by themselves (a policy's `authorizer`
   * library): unlike `authorize`, never reported as a request's denial.
   */
  checkAccess?: (attrs: Attributes) => string | undefined;
  /** Told of each 403 a write gets past authorization (RBAC's escalation check), by user. */
  forbade?: (user: string, message: string) => void;
  apply?: HandlerDeps["apply"];

  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;

  constructor(private readonly options: ApiServerOptions = {}) {
    this.kube = kubeVersion(
      options.kubernetesVersion,
      options.featureGates ? { featureGates: options.featureGates } : {},
    );
    this.registry = new Registry(this.kube);
    this.store = new Store(options.historyLimit ?? 10_000);
    this.rest = new ObjectRest(this.store);
    this.serviceAccountTokens = new ServiceAccountTokens(this.store);
    this.auth.serviceAccounts = this.serviceAccountTokens;
    this.rbac = new RbacAuthorizer(this.store);
    if (options.auth === "rbac") {
      this.authorize = (a) => this.rbac.authorize(a);
      this.checkAccess = this.authorize;
    }
    this.rest.admission = new AdmissionChain(
      admissionPlugins({
        store: this.store,
        registry: this.registry,
        ...(options.podSecurity ? { podSecurity: options.podSecurity } : {}),
        authorize: () => this.authorize,
        ...(options.auth === "rbac"
          ? { rbacEscalation: { rbac: this.rbac, forbade: (u, m) => this.forbade?.(u, m) } }
          : {}),
      }),
    );
    this.rest.driver = new WebhookAdmission(
      this.store,
      new WebhookSource(this.store),
      new PolicyAdmission(this.store, this.registry, () => this.checkAccess ?? this.authorize),
    );
    this.apply = (scope, body, force) => serverSideApply(this.rest, scope, body, force);
    // What the server's own components write through: the same path as a request (api-client.ts).
    this.client = new InternalClient({
      registry: this.registry,
      rest: this.rest,
    });
    this.controllers.push(new CrdController(this.store, this.registry, this.rest, this.client));
    this.controllers.push(new ClusterRoleAggregationController(this.store, this.client));
    this.disruption = new DisruptionController(this.store, this.client);
    this.controllers.push(this.disruption);
    this.controllers.push(new ResourceQuotaController(this.store, this.registry, this.client));
    this.controllers.push(new PolicyStatusController(this.store, this.registry, this.client));
    this.controllers.push(new EndpointsController(this.store, this.client));
    // The ServiceAccount controller and the root CA publisher (with the CA that clients' kubeconfig
    // trusts) keep their object in every namespace.
    this.controllers.push(
      new NamespaceObjectsController(
        this.store,
        [defaultServiceAccount, rootCaConfigMap(this.tls.caPem)],
        this.client,
      ),
    );
    // The CSR signer signs with the cluster CA (see http/certs.ts).
    this.controllers.push(new CsrSigningController(this.store, this.client, this.tls.ca));
    this.registry.putBuiltins(
      builtinResources({
        kube: this.kube,
        store: this.store,
        rest: this.rest,
        registry: this.registry,
        auth: this.auth,
        tokens: this.serviceAccountTokens,
        disruption: this.disruption,
        loopback: this.client.as(apiserverIdentity()),
        rbac: this.rbac,
        authorization: options.auth ?? "none",
      }),
    );
    this.bootstrap();
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `https://127.0.0.1:${this.boundPort}`;
  }

  /** What every cluster has from the start (bootstrap.ts). */
  private bootstrap(): void {
    for (const { group, version, resource, object } of bootstrapObjects())
      this.systemCreate(group, version, resource, object);
  }

  /**
   * Creates an object as kube-apiserver's loopback client (bootstrap, installed manifests);
   * `manager` names the writer in managedFields. Without awaiting: webhooks and policies are not
   * called (see ApiClient.createSync). Returns the stored object itself: read-only, clone it
   * before changing it.
   */
  systemCreate(
    group: string,
    version: string,
    resource: string,
    obj: KubeObject,
    manager = "kube-apiserver",
  ): KubeObject {
    return this.client.as(apiserverIdentity(manager)).createSync({ group, version, resource }, obj);
  }

  /**
   * Creates an object as a kube-controller-manager controller does with its own service account
   * (`system:serviceaccount:kube-system:<controller>`): through the whole admission chain,
   * mutating and validating webhooks included. Returns the stored object (read-only).
   */
  systemCreateAs(
    controller: string,
    group: string,
    version: string,
    resource: string,
    obj: KubeObject,
  ): Promise<KubeObject> {
    return this.client.as(controllerIdentity(controller)).create({ group, version, resource }, obj);
  }

  /** Objects of a resource as stored (tests and controllers). */
  list(group: string, resource: string, namespace?: string): KubeObject[] {
    return this.store.list(bucketKey(group, resource), namespace);
  }

  async listen(port = this.options.port ?? 0): Promise<void> {
    const handler = createHandler({
      registry: this.registry,
      store: this.store,
      rest: this.rest,
      auth: this.auth,
      serverAddress: () => `127.0.0.1:${this.boundPort}`,
      watches: this.watches,
      authorize: (a: Attributes) => this.authorize?.(a),
      before: async (a: Attributes) => {
        await this.before?.(a);
      },
      apply: (scope, body, force) => {
        if (!this.apply)
          throw errors.unsupportedMediaType([
            "application/json-patch+json",
            "application/merge-patch+json",
          ]);
        return this.apply(scope, body, force);
      },
      metrics: this.metrics,
      inFlightLimits: {
        readOnly: this.options.maxRequestsInFlight ?? 400,
        mutating: this.options.maxMutatingRequestsInFlight ?? 200,
      },
    });
    // Client certificates are requested, not required (`--client-ca-file`): auth/x509.ts reads
    // the ones that chain to the cluster CA; requests without one go on to the tokens.
    const server = createServer(
      {
        key: this.tls.keyPem,
        cert: this.tls.certPem,
        ca: [this.tls.caPem],
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        void handler(req, res);
      },
    );
    server.keepAliveTimeout = 60_000;
    server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    server.on("secureConnection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    const addr = server.address();
    this.boundPort = typeof addr === "object" && addr ? addr.port : port;
    this.server = server;
    for (const c of this.controllers) c.start();
  }

  /** Ends every open watch cleanly (clients re-watch from their last resourceVersion). */
  dropWatches(): void {
    for (const w of [...this.watches]) w.close();
  }

  /** Stops serving: ends watches, closes every connection, stops controllers. */
  async close(): Promise<void> {
    for (const c of this.controllers) c.stop();
    this.dropWatches();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }
}
