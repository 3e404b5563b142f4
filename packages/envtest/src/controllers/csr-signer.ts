/**
 * kube-controller-manager's CSR signing controllers (`csrsigning`) for the built-in signers
 * kubernetes.io/kube-apiserver-client, kube-apiserver-client-kubelet and kubelet-serving, with the
 * cluster CA that clients' kubeconfig trusts (its `--cluster-signing-*-file`): a request that is
 * Approved (not Denied, not Failed) and has no certificate yet is checked against its signer's
 * restrictions; one that breaks them gets kube's Failed condition, the others their certificate
 * (signCertificateRequest of `@opgen/apimachinery/certs`), valid for spec.expirationSeconds
 * clamped to [10m, --cluster-signing-duration (1 year)]. Both are written through the status
 * subresource as `kube-controller-manager`, so admission, validation and managedFields see what
 * they see on a cluster. Requests for any other signer (legacy-unknown included) are left to
 * their own signer.
 */

import {
  type CertificateAuthority,
  type CertificateRequest,
  NAME_OID,
  parseCsrPem,
  signCertificateRequest,
  subjectValues,
} from "@opgen/apimachinery/certs";
import { nowTime } from "../api/meta.js";
import { bucketKey } from "../api/registry.js";
import { deepClone, type JsonObject, objectAt } from "../api/types.js";
import type { ApiClient, InternalClient } from "../client/api-client.js";
import { controllerIdentity } from "../client/identities.js";
import type { Store } from "../store/store.js";

const BUCKET = bucketKey("certificates.k8s.io", "certificatesigningrequests");
const CSRS = {
  group: "certificates.k8s.io",
  version: "v1",
  resource: "certificatesigningrequests",
};

/** `--cluster-signing-duration`'s default. */
export const DEFAULT_CERT_TTL_MS = 8760 * 3600_000;
const MIN_TTL_MS = 10 * 60_000;

type Restriction = (req: CertificateRequest, usages: readonly string[]) => string | undefined;

const sameSet = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === b.length && b.every((x) => a.includes(x));

/** `usages did not match [..]`: Go prints the sorted set with spaces between items. */
const usagesMismatch = (required: readonly string[]) =>
  `usages did not match [${[...required].sort().join(" ")}]`;

const isNodesOrg = (req: CertificateRequest) => {
  const orgs = subjectValues(req.subject, NAME_OID.organization);
  return orgs.length === 1 && orgs[0] === "system:nodes";
};
const commonName = (req: CertificateRequest) =>
  subjectValues(req.subject, NAME_OID.commonName).at(-1) ?? "";

/** ValidateKubeletServingCSR. */
const kubeletServing: Restriction = (req, usages) => {
  if (!isNodesOrg(req)) return "subject organization is not system:nodes";
  if (req.sans.dnsNames.length === 0 && req.sans.ipAddresses.length === 0)
    return "DNS or IP subjectAltName is required";
  if (req.sans.emailAddresses.length > 0) return "Email subjectAltNames are not allowed";
  if (req.sans.uris.length > 0) return "URI subjectAltNames are not allowed";
  const full = ["digital signature", "key encipherment", "server auth"];
  if (!sameSet(usages, full) && !sameSet(usages, ["digital signature", "server auth"]))
    return usagesMismatch(full);
  if (!commonName(req).startsWith("system:node:"))
    return "subject common name does not begin with system:node:";
  return undefined;
};

/** ValidateKubeletClientCSR. */
const kubeletClient: Restriction = (req, usages) => {
  if (!isNodesOrg(req)) return "subject organization is not system:nodes";
  if (req.sans.dnsNames.length > 0) return "DNS subjectAltNames are not allowed";
  if (req.sans.emailAddresses.length > 0) return "Email subjectAltNames are not allowed";
  if (req.sans.ipAddresses.length > 0) return "IP subjectAltNames are not allowed";
  if (req.sans.uris.length > 0) return "URI subjectAltNames are not allowed";
  if (!commonName(req).startsWith("system:node:"))
    return "subject common name does not begin with system:node:";
  const full = ["digital signature", "key encipherment", "client auth"];
  if (!sameSet(usages, full) && !sameSet(usages, ["digital signature", "client auth"]))
    return usagesMismatch(full);
  return undefined;
};

/** validAPIServerClientUsages. */
const apiServerClient: Restriction = (_req, usages) => {
  let clientAuth = false;
  for (const u of usages) {
    if (u === "client auth") clientAuth = true;
    else if (u !== "digital signature" && u !== "key encipherment")
      return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : "missing required usage for client certificate: client auth";
};

export const BUILTIN_SIGNERS: ReadonlyMap<string, Restriction> = new Map([
  ["kubernetes.io/kube-apiserver-client", apiServerClient],
  ["kubernetes.io/kube-apiserver-client-kubelet", kubeletClient],
  ["kubernetes.io/kubelet-serving", kubeletServing],
]);

function hasTrue(conditions: readonly JsonObject[], type: string): boolean {
  return conditions.some((c) => c.type === type && c.status === "True");
}

/** The certificate's lifetime: the requested one within [10m, the signing duration]. */
export function certificateTtl(expirationSeconds: unknown, certTtlMs: number): number {
  if (typeof expirationSeconds !== "number") return certTtlMs;
  const requested = expirationSeconds * 1000;
  if (requested > certTtlMs) return certTtlMs;
  return Math.max(requested, MIN_TTL_MS);
}

export class CsrSigningController {
  private unsubscribe: () => void = () => {};
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private readonly client: ApiClient;

  constructor(
    private readonly store: Store,
    client: InternalClient,
    private readonly ca: CertificateAuthority,
    private readonly certTtlMs = DEFAULT_CERT_TTL_MS,
  ) {
    this.client = client.as(controllerIdentity("certificate-controller"));
  }

  start(): void {
    this.unsubscribe = this.store.subscribe(BUCKET, (ev) => {
      if (ev.type !== "DELETED") this.enqueue(ev.object.metadata?.name ?? "");
    });
    for (const csr of this.store.list(BUCKET)) this.enqueue(csr.metadata?.name ?? "");
  }

  stop(): void {
    this.unsubscribe();
  }

  /** One sync per name at a time; an event during a sync runs it once more after. */
  private enqueue(name: string): void {
    if (this.running.has(name)) {
      this.again.add(name);
      return;
    }
    this.running.add(name);
    // After the write that announced it, as a controller reacts to a watch event.
    setImmediate(() => {
      void this.sync(name)
        .catch(() => {
          // A conflict or a refused write: the next event on this request syncs it again.
        })
        .finally(() => {
          this.running.delete(name);
          if (this.again.delete(name)) this.enqueue(name);
        });
    });
  }

  private async sync(name: string): Promise<void> {
    const current = this.store.get(BUCKET, undefined, name);
    if (!current) return;
    const spec = objectAt(current.spec);
    const status = objectAt(current.status);
    if (typeof status.certificate === "string" && status.certificate !== "") return;
    const conditions = Array.isArray(status.conditions) ? (status.conditions as JsonObject[]) : [];
    const approved = hasTrue(conditions, "Approved") && !hasTrue(conditions, "Denied");
    if (!approved || hasTrue(conditions, "Failed")) return;
    const restriction = BUILTIN_SIGNERS.get(String(spec.signerName ?? ""));
    if (!restriction) return;
    const req = parseCsrPem(Buffer.from(String(spec.request ?? ""), "base64"));
    if (typeof req === "string") return;
    const usages = Array.isArray(spec.usages) ? spec.usages.map(String) : [];
    const next = deepClone(current);
    const failure = restriction(req, usages);
    if (failure) {
      next.status = {
        ...objectAt(next.status),
        conditions: [
          ...conditions,
          {
            type: "Failed",
            status: "True",
            reason: "SignerValidationFailure",
            message: failure,
            lastUpdateTime: nowTime(),
          },
        ],
      };
    } else {
      const issued = signCertificateRequest(req, this.ca, {
        usages,
        ttlMs: certificateTtl(spec.expirationSeconds, this.certTtlMs),
      });
      if ("error" in issued) return;
      next.status = {
        ...objectAt(next.status),
        certificate: Buffer.from(issued.pem).toString("base64"),
      };
    }
    await this.client.updateStatus(CSRS, next);
  }
}
