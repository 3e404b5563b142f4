/**
 * kube-apiserver 1.32's printers for CertificateSigningRequests, ControllerRevisions and
 * RuntimeClasses, and kube-aggregator's table for APIServices.
 */
import { objectAt } from "../../api/types.js";
import { humanDuration, namedPrinter, type Printer } from "../printing.js";
import { doc } from "./describe.js";
import { listAt, str } from "./format.js";

/** A CSR's condition cell: Denied over Approved over Pending, then Failed and Issued. */
export function csrCondition(status: unknown): string {
  const s = objectAt(status);
  const types = new Set(listAt(s.conditions).map((c) => c.type));
  let out = types.has("Denied") ? "Denied" : types.has("Approved") ? "Approved" : "Pending";
  if (types.has("Failed")) out += ",Failed";
  if (str(s.certificate) !== "") out += ",Issued";
  return out;
}

/** CSRs; kube cites the certificates/v1beta1 docs, worded here as certificates/v1's. */
export const certificateSigningRequestPrinter: Printer = (() => {
  const spec = "api.certificates.v1.CertificateSigningRequestSpec";
  const base = namedPrinter([], () => []);
  return {
    columns: [
      ...base.columns,
      { name: "SignerName", type: "string", description: doc(spec, "signerName") },
      { name: "Requestor", type: "string", description: doc(spec, "request") },
      { name: "RequestedDuration", type: "string", description: doc(spec, "expirationSeconds") },
      {
        name: "Condition",
        type: "string",
        description: doc("api.certificates.v1.CertificateSigningRequestStatus", "conditions"),
      },
    ],
    cells(o) {
      const s = objectAt(o.spec);
      const seconds = s.expirationSeconds;
      return [
        ...base.cells(o),
        str(s.signerName) || "<none>",
        str(s.username),
        typeof seconds === "number" ? humanDuration(seconds * 1000) : "<none>",
        csrCondition(o.status),
      ];
    },
  };
})();

/** `schema.GroupKind.String()` lowercased, then the name: `daemonset.apps/foo`. */
function controllerName(ref: Record<string, unknown>): string {
  const apiVersion = str(ref.apiVersion);
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  const kind = str(ref.kind);
  const name = str(ref.name);
  if (kind === "" && group === "") return name;
  return `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${name}`;
}

export const controllerRevisionPrinter: Printer = namedPrinter(
  [
    { name: "Controller", type: "string", description: "Controller of the object" },
    // kube cites apps/v1beta1.ControllerRevision, worded as apps/v1's.
    {
      name: "Revision",
      type: "string",
      description: doc("api.apps.v1.ControllerRevision", "revision"),
    },
  ],
  (o) => {
    const owner = (o.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
    return [
      owner ? controllerName(owner as unknown as Record<string, unknown>) : "<none>",
      o.revision ?? 0,
    ];
  },
);

export const runtimeClassPrinter: Printer = namedPrinter(
  // kube describes Handler with ObjectMeta's (absent) `handler` doc: an empty description.
  [
    {
      name: "Handler",
      type: "string",
      description: doc("apimachinery.pkg.apis.meta.v1.ObjectMeta", "handler"),
    },
  ],
  (o) => [str(o.handler)],
);

/** APIServices (kube-aggregator's own table): `Local` or the service, the Available condition. */
export const apiServicePrinter: Printer = namedPrinter(
  [
    {
      name: "Service",
      type: "string",
      description: "The reference to the service that hosts this API endpoint.",
    },
    { name: "Available", type: "string", description: "Whether this service is available." },
  ],
  (o) => {
    const spec = objectAt(o.spec);
    const service =
      spec.service === undefined || spec.service === null
        ? "Local"
        : `${str(objectAt(spec.service).namespace)}/${str(objectAt(spec.service).name)}`;
    const available = listAt(objectAt(o.status).conditions).find((c) => c.type === "Available");
    let status = "Unknown";
    if (available) {
      const s = str(available.status);
      const reason = str(available.reason);
      status = s !== "True" && reason !== "" ? `${s} (${reason})` : s;
    }
    return [service, status];
  },
);
