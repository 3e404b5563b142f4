/**
 * What the server knows of one served resource, and the request it serves: a resource's
 * definition (its strategy, subresources, create-only answer and storage hooks, as kube-apiserver
 * keeps them in one `NewStorage` per resource) resolved against its discovery facts, and the
 * per-request scope the REST verbs work with. These types refer to one another (a subresource's
 * handler takes the scope, the scope names the resource), so they share this module.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FieldError } from "@opgen/apimachinery/status";
import type { NameRule } from "@opgen/apimachinery/validation";
import type { KubeVersion } from "@opgen/apimachinery/version";
import type {
  ConversionWebhook,
  KubeObject,
  ResourceVersionInfo,
  SharedStorage,
} from "./object.js";

export interface UserInfo {
  name: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/**
 * The per-request view a REST operation works with: which resource and version, which object,
 * the query options and the caller. Built by the HTTP router, consumed by the REST verbs.
 */
export interface RequestScope {
  info: ResourceInfo;
  version: ResourceVersionInfo;
  namespace?: string;
  name?: string;
  subresource?: string;
  query: URLSearchParams;
  user: UserInfo;
  /** fieldManager query parameter, or the User-Agent product name. */
  manager: string;
  /** Warnings to send back as `Warning: 299` headers. */
  warnings: string[];
  /** Fields the JSON body repeated (`spec.replicas`), for strict decoding. */
  duplicateFields?: readonly string[];
  /**
   * The object is server-side apply's result, which kube defaults but does not decode again:
   * a `null` that removal left where the schema is not nullable stays for validation to refuse
   * (structured-merge-diff empties a parent to `null`; kubernetes/kubernetes#117447).
   */
  applied?: boolean;
  /** The body's text had no null, `{}` or `[]`: nothing for decoding to drop. */
  noEmpties?: boolean;
  /**
   * The caller serializes a write's result at once and never changes it (the HTTP handler): the
   * stored object itself may be returned, as reads do (see view()), saving a deep copy per write.
   */
  readOnlyResult?: boolean;
}

/** What a write answers: the status code and the object. */
export interface WriteResult {
  code: number;
  body: KubeObject;
}

/** A Table column as `kubectl get` receives it. */
export interface PrinterColumnDefinition {
  name: string;
  type: string;
  format?: string;
  /** The text, or a field whose description (in the serving minor's catalog) it is. */
  description: string | FieldDoc;
  priority?: number;
}

/** A column described as kube's printers do, by a field's Go doc: `Type{}.SwaggerDoc()[field]`. */
export interface FieldDoc {
  /** The definition, e.g. `io.k8s.api.core.v1.PodSpec`. */
  readonly definition: string;
  readonly field: string;
}

/** The columns `kubectl get` prints for a resource, and each object's cells. */
export interface Printer {
  columns: PrinterColumnDefinition[];
  cells(o: KubeObject): unknown[];
  /** The order of a list's rows, where kube's list printer sorts them (FlowSchemas). */
  order?(items: KubeObject[]): KubeObject[];
}

/**
 * The per-resource rules kube-apiserver keeps in `pkg/registry/<group>/<resource>/strategy.go`
 * and its printers: everything the generic REST store (rest/objects.ts) must not know by name.
 */
export interface ResourceStrategy {
  /** How metadata.name is validated (the strategy's ValidateObjectMeta name function). */
  readonly nameRule: NameRule;
  /** PrepareForCreate keeps a status sent on create (namespaces, pods, services) instead of dropping it. */
  readonly statusOnCreate?: boolean;
  /**
   * Subresources whose update takes the body's status for prepareForUpdate to sort out
   * (certificatesigningrequests/approval) instead of keeping the stored one.
   */
  readonly ownsSubresourceStatus?: readonly string[];
  /**
   * Metadata a status update writes besides the status (a Deployment's annotations: its status
   * strategy resets only spec and labels, and the controller records the revision there).
   */
  readonly statusMetadata?: readonly ("annotations" | "finalizers")[];
  /**
   * The fields a write through `subresource` (undefined: the main resource) leaves as they were,
   * as the strategy's `GetResetFields` tells server-side apply, when they differ from the
   * default: `status` on the main resource and other subresources of a kind with a status
   * subresource, `spec` on the status subresource.
   */
  resetFields?(subresource: string | undefined): readonly (readonly string[])[] | undefined;
  /**
   * Decoding of a written body in place of the built-in one (typed decoding with strict field
   * validation, then `defaults`): custom resources are pruned, defaulted and checked against
   * their CRD's schema. `mutated` is a second decoding, of what mutating admission returned,
   * which drops unknown fields silently.
   */
  decode?(scope: RequestScope, o: KubeObject, mutated: boolean): void;
  /** The part of the object whose change bumps metadata.generation (default: spec). */
  generationRelevant?(o: KubeObject, version: ResourceVersionInfo): unknown;
  /** Server-side defaults (`defaults.go`), applied on every write. */
  defaults?(o: KubeObject): void;
  /** Kind-specific validation beyond ObjectMeta. */
  validate?(o: KubeObject): FieldError[];
  /** ValidateCreate beyond `validate`: what a create may not hold (ephemeral containers). */
  validateCreate?(o: KubeObject): FieldError[];
  /**
   * PrepareForCreate after admission plugins ran (a pod's QoS class from its final resources);
   * `warnings` collects the ones kube adds there (a pod's deprecated AppArmor annotations);
   * `user` is the request's identity (a CertificateSigningRequest's requester).
   */
  prepareForCreate?(o: KubeObject, warnings: string[], user?: UserInfo): void;
  /**
   * Validation that reads the stored object and the request (a CSR's status and approval rules,
   * a custom resource's schema and CEL rules); when present it replaces `validate`,
   * `validateCreate` and `validateUpdate`. `found` are the errors ObjectMeta's validation found.
   */
  validateWrite?(
    o: KubeObject,
    old: KubeObject | undefined,
    scope: RequestScope,
    found: readonly FieldError[],
  ): FieldError[];
  /** ValidateUpdate beyond `validate`: the fields an update may not change (immutability). */
  validateUpdate?(o: KubeObject, old: KubeObject, subresource: string | undefined): FieldError[];
  /** PrepareForUpdate: carries over from `old` what this request may not change. */
  prepareForUpdate?(o: KubeObject, old: KubeObject, subresource: string | undefined): void;
  /** Finalizers outside metadata.finalizers that hold a deletion (a namespace's spec.finalizers). */
  pendingFinalizers?(o: KubeObject): readonly unknown[];
  /** Seconds a deletion waits for (a pod on a node terminates gracefully); 0 deletes at once. */
  gracePeriodSeconds?(o: KubeObject, requested: number | undefined): number;
  /** Marks an object whose deletion has just begun (a namespace turns Terminating). */
  beginDeletion?(o: KubeObject): void;
  /** Why this object may never be deleted, if it may not (the immortal namespaces). */
  deleteForbidden?(o: KubeObject): string | undefined;
  /** The Table columns `kubectl get` prints (default: Name, Created At). */
  printer?(version: ResourceVersionInfo): Printer | undefined;
}

/**
 * The REST handler of a named subresource (status and scale are each version's own). A handler
 * with none of these serves the subresource through the generic get, update and patch of the
 * object, the strategy telling the subresource apart (pods/ephemeralcontainers,
 * certificatesigningrequests/approval).
 */
export interface SubresourceHandler {
  /**
   * POST (serviceaccounts/token, pods/eviction, pods/binding): `body` has passed admission as the
   * subresource's kind; answers without storing it.
   */
  create?(scope: RequestScope, body: KubeObject): WriteResult | Promise<WriteResult>;
  /** PUT of a body that is not the object itself (namespaces/finalize). */
  update?(scope: RequestScope, body: KubeObject): Promise<WriteResult>;
  /**
   * Subresources that answer the HTTP exchange themselves, unnegotiated (pods/log, exec, attach,
   * portforward, proxy), as kube's connecters do.
   */
  connect?(scope: RequestScope, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The caller of a create-only resource (reviews, bindings), which is never stored. */
export interface VirtualScope {
  info: ResourceInfo;
  namespace?: string;
  user: UserInfo;
}

/** Answers a create of a create-only resource. */
export type VirtualCreate = (scope: VirtualScope, body: KubeObject) => WriteResult;

/**
 * kube's `Store.BeginCreate` and `BeginUpdate`: storage work after mutating admission and before
 * the strategy validates (a Service's cluster IP and node ports); `old` is absent on create.
 */
export type BeginWrite = (
  scope: RequestScope,
  obj: KubeObject,
  old: KubeObject | undefined,
) => void;

/**
 * A built-in resource as its group declares it (`registry/<group>/index.ts`): its behaviour. Its
 * discovery facts (kind, versions, scope, names, verbs, status and scale) come from the catalog.
 */
export interface ResourceDefinition {
  /** The plural name; the group is the declaring module's. */
  readonly resource: string;
  /** The strategy (default: the generic one, names as DNS subdomains). */
  readonly strategy?: ResourceStrategy;
  /** Maintains metadata.generation (the spec'd kinds). */
  readonly generation?: boolean;
  /** A PUT must name the resourceVersion it replaces (CRDs). */
  readonly conditionalUpdate?: boolean;
  /** DELETE answers with the deleted object instead of a Success Status. */
  readonly returnDeletedObject?: boolean;
  /** Field selector labels besides metadata.name and metadata.namespace. */
  readonly fieldLabels?: ResourceInfo["fieldLabels"];
  /** Further GA versions served besides the catalog's (stored) one, and how to convert. */
  readonly alsoServed?: { versions: string[]; convert: NonNullable<ResourceInfo["convert"]> };
  /** Objects kept in another resource's storage (events.k8s.io events in core events). */
  readonly sharedStorage?: SharedStorage;
  /** Named subresources besides status and scale, by name. */
  readonly subresources?: Readonly<Record<string, SubresourceHandler>>;
  /** A create-only resource, answered and never stored. */
  readonly virtual?: VirtualCreate;
  /** The storage's BeginCreate/BeginUpdate (a Service's cluster IP and node ports). */
  readonly beginWrite?: BeginWrite;
}

/** Everything the server knows about one resource (group + plural), across its versions. */
export interface ResourceInfo {
  /**
   * The serving server's version profile: the catalog a built-in's schemas come from (and a custom
   * resource's ObjectMeta), the feature gates its strategy reads.
   */
  readonly kube: KubeVersion;
  group: string;
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Served versions, preferred first. */
  versions: ResourceVersionInfo[];
  /** Custom resources come from a CRD; they reject strategic merge patch. */
  custom: boolean;
  /** Maintains metadata.generation (CRs and spec'd built-ins). */
  generation: boolean;
  /** PUT without resourceVersion allowed (ConfigMap, Secret, Lease, …). */
  unconditionalUpdate: boolean;
  /** DELETE answers with the deleted object instead of a Success Status. */
  returnDeletedObject: boolean;
  /** Discovery verbs (built-ins, from the catalog); CRDs serve the full set. */
  verbs?: string[];
  /** Extra field selector labels besides metadata.name/namespace. */
  fieldLabels?: Record<string, (obj: KubeObject) => string | undefined>;
  /** The CRD's name (for CRs). */
  crdName?: string;
  /** The CRD is terminating: no new objects. */
  terminating?: boolean;
  /** Converts a built-in between its served versions (an HPA's autoscaling/v1 and v2). */
  convert?: (o: KubeObject, version: string) => KubeObject;
  /** Objects live in another resource's storage (events.k8s.io events in core events). */
  sharedStorage?: SharedStorage;
  /** A CRD's `spec.conversion.webhook` when its strategy is Webhook. */
  conversionWebhook?: ConversionWebhook;
  /** The resource's rules: defaults, validation, updates, deletion, Table. */
  strategy: ResourceStrategy;
  /** Named subresources besides status and scale, with their handlers. */
  subresources?: Readonly<Record<string, SubresourceHandler>>;
  /** Create-only resources (reviews, bindings): the answer to a create; never stored. */
  virtual?: VirtualCreate;
  /** Storage work between mutating admission and validation (see BeginWrite). */
  beginWrite?: BeginWrite;
}

export function storageVersion(info: ResourceInfo): ResourceVersionInfo {
  return info.versions.find((v) => v.storage) ?? info.versions[0]!;
}

/** The group and resource of errors about the resource's objects. */
export function gr(info: ResourceInfo): { group: string; resource: string } {
  return { group: info.group, resource: info.resource };
}
