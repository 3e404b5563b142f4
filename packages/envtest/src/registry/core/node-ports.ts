/**
 * Service node ports, as kube-apiserver's service registry allocates them: a NodePort or
 * LoadBalancer Service (unless `allocateLoadBalancerNodePorts: false`) gets a free port of
 * 30000-32767 for each of its ports that names none; a requested port must be free and in range;
 * an update keeps the ports already allocated, and a change to ClusterIP releases them. Ports in
 * use are read from the stored Services, so failed, dry-run and deleted Services need no
 * bookkeeping.
 */
import { errors, type FieldError } from "@opgen/apimachinery/status";
import { isObject, type JsonObject, type KubeObject } from "../../api/types.js";
import type { RequestScope } from "../../rest/scope.js";
import type { Store } from "../../store/store.js";

const MIN = 30000;
const MAX = 32767;

function ports(spec: JsonObject): JsonObject[] {
  return (Array.isArray(spec.ports) ? spec.ports : []).filter(isObject);
}

export class NodePortAllocator {
  private next = MIN;

  constructor(private readonly store: Store) {}

  private used(except: KubeObject | undefined): Set<number> {
    const used = new Set<number>();
    for (const svc of this.store.list("/services")) {
      if (except && svc.metadata?.uid === except.metadata?.uid) continue;
      for (const p of ports((svc.spec ?? {}) as JsonObject))
        if (typeof p.nodePort === "number") used.add(p.nodePort);
    }
    return used;
  }

  /** Allocates for a Service being created or updated (`old`), as its BeginCreate/BeginUpdate. */
  allocate(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): void {
    if (scope.subresource === "status") return;
    const spec = (isObject(obj.spec) ? obj.spec : {}) as JsonObject;
    const wants =
      spec.type === "NodePort" ||
      (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false);
    const oldPorts = old ? ports((old.spec ?? {}) as JsonObject) : [];
    if (!wants) {
      // Changing to ClusterIP releases the ports the Service had (dropTypeDependentFields).
      if (spec.type === "ClusterIP" || spec.type === "ExternalName")
        for (const p of ports(spec))
          if (oldPorts.some((o) => o.nodePort === p.nodePort)) delete p.nodePort;
      return;
    }
    const used = this.used(old);
    const errs: FieldError[] = [];
    ports(spec).forEach((p, i) => {
      if (p.nodePort === undefined || p.nodePort === 0) {
        const kept = oldPorts.find((o) => o.port === p.port && o.protocol === p.protocol)?.nodePort;
        if (typeof kept === "number" && !used.has(kept)) {
          p.nodePort = kept;
          used.add(kept);
          return;
        }
        for (let n = 0; n <= MAX - MIN; n++) {
          const candidate = MIN + ((this.next - MIN + n) % (MAX - MIN + 1));
          if (!used.has(candidate)) {
            p.nodePort = candidate;
            used.add(candidate);
            this.next = candidate + 1 > MAX ? MIN : candidate + 1;
            return;
          }
        }
        throw errors.internal("failed to allocate a nodePort: range is full");
      }
      const n = p.nodePort;
      const field = `spec.ports[${i}].nodePort`;
      if (typeof n !== "number" || n < MIN || n > MAX)
        errs.push({
          type: "FieldValueInvalid",
          field,
          value: n,
          detail: `provided port is not in the valid range. The range of valid ports is ${MIN}-${MAX}`,
        });
      else if (used.has(n) && !oldPorts.some((o) => o.nodePort === n))
        errs.push({
          type: "FieldValueInvalid",
          field,
          value: n,
          detail: "provided port is already allocated",
        });
      else used.add(n);
    });
    if (errs.length) throw errors.invalid("Service", "", obj.metadata?.name ?? "", errs);
  }
}
