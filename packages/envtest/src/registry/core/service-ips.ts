/**
 * Service cluster IP allocation, as kube-apiserver's service registry does it: a Service other
 * than ExternalName or headless (`clusterIP: None`) gets the next free address of the service
 * range 10.96.0.0/12 (10.96.0.1 belongs to the `kubernetes` Service), in `clusterIP` and
 * `clusterIPs`; the address is immutable afterwards. Addresses in use are read from the stored
 * Services, so a request that fails validation, a dry run or a deletion needs no bookkeeping.
 */
import { errors, goValue } from "@opgen/apimachinery/status";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { Store } from "../../store/store.js";

const base = (10 << 24) | (96 << 16);
const size = 1 << 20;

function ipOf(n: number): string {
  const v = base + n;
  return [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");
}

export class ServiceIpAllocator {
  private next = 2;

  constructor(private readonly store: Store) {}

  private used(): Set<string> {
    const used = new Set<string>();
    for (const svc of this.store.list("/services")) {
      const ip = ((svc.spec ?? {}) as JsonObject).clusterIP;
      if (typeof ip === "string") used.add(ip);
    }
    return used;
  }

  /** Allocates for a Service being created or updated (`old`), as its BeginCreate/BeginUpdate. */
  allocate(obj: KubeObject, old: KubeObject | undefined): void {
    const spec = (isObject(obj.spec) ? obj.spec : {}) as JsonObject;
    obj.spec = spec;
    if (old) {
      const oldSpec = (old.spec ?? {}) as JsonObject;
      if (spec.clusterIP === undefined || spec.clusterIP === "") spec.clusterIP = oldSpec.clusterIP;
      if (spec.clusterIPs === undefined) spec.clusterIPs = oldSpec.clusterIPs;
      if (
        oldSpec.clusterIP !== undefined &&
        spec.clusterIP !== oldSpec.clusterIP &&
        spec.type !== "ExternalName"
      ) {
        throw errors.invalid("Service", "", obj.metadata?.name ?? "", [
          {
            type: "FieldValueInvalid",
            field: "spec.clusterIPs[0]",
            value: spec.clusterIP,
            detail: "may not change once set",
          },
        ]);
      }
      return;
    }
    if (spec.type === "ExternalName") return;
    if (spec.clusterIP === "None") {
      spec.clusterIPs = ["None"];
      return;
    }
    const used = this.used();
    if (typeof spec.clusterIP === "string" && spec.clusterIP !== "") {
      if (used.has(spec.clusterIP)) {
        throw errors.invalid("Service", "", obj.metadata?.name ?? "", [
          {
            type: "FieldValueInvalid",
            field: "spec.clusterIPs",
            value: goValue(`[]string{${JSON.stringify(spec.clusterIP)}}`),
            detail: `failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`,
          },
        ]);
      }
      spec.clusterIPs = [spec.clusterIP];
      return;
    }
    for (let i = 0, n = this.next; i < size; i++, n = n + 1 >= size - 1 ? 2 : n + 1) {
      const ip = ipOf(n);
      if (!used.has(ip)) {
        this.next = n + 1 >= size - 1 ? 2 : n + 1;
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
        return;
      }
    }
    throw errors.internal("failed to allocate a serviceIP: range is full");
  }
}
