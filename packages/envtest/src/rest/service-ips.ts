/**
 * Service cluster IP allocation, as kube-apiserver's service registry does it: a Service other
 * than ExternalName or headless (`clusterIP: None`) gets the next free address of the service
 * range 10.96.0.0/12 (10.96.0.1 belongs to the `kubernetes` Service), in `clusterIP` and
 * `clusterIPs`; the address is immutable afterwards.
 */
import { errors } from "../api/errors.js";
import { isObject, type JsonObject, type KubeObject } from "../api/types.js";
import type { AdmissionHook } from "./objects.js";
import type { RequestScope } from "./scope.js";

const base = (10 << 24) | (96 << 16);
const size = 1 << 20;

function ipOf(n: number): string {
  const v = base + n;
  return [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");
}

export class ServiceIpAllocator implements AdmissionHook {
  private next = 2;
  /** 10.96.0.1 is claimed by the `kubernetes` Service the server creates at start. */
  private readonly used = new Set<string>();

  admit(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (scope.info.group !== "" || scope.info.resource !== "services") return;
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
    if (typeof spec.clusterIP === "string" && spec.clusterIP !== "") {
      if (this.used.has(spec.clusterIP)) {
        throw errors.invalid("Service", "", obj.metadata?.name ?? "", [
          {
            type: "FieldValueInvalid",
            field: "spec.clusterIPs",
            value: [spec.clusterIP],
            detail: `failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`,
          },
        ]);
      }
      if (scope.query.getAll("dryRun").length === 0) this.used.add(spec.clusterIP);
      spec.clusterIPs = [spec.clusterIP];
      return;
    }
    // A dry run shows the address a real create would get, without taking it.
    const dryRun = scope.query.getAll("dryRun").length > 0;
    for (let i = 0, n = this.next; i < size; i++, n = n + 1 >= size - 1 ? 2 : n + 1) {
      const ip = ipOf(n);
      if (!this.used.has(ip)) {
        if (!dryRun) {
          this.used.add(ip);
          this.next = n + 1 >= size - 1 ? 2 : n + 1;
        }
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
        return;
      }
    }
    throw errors.internal("failed to allocate a serviceIP: range is full");
  }

  /** Returns an address to the pool when its Service is deleted. */
  release(obj: KubeObject): void {
    const ip = ((obj.spec ?? {}) as JsonObject).clusterIP;
    if (typeof ip === "string") this.used.delete(ip);
  }
}
