/** NetworkPolicies (`pkg/registry/networking/networkpolicy`): their defaults and columns. */
import { isObject, type JsonObject } from "../../api/types.js";
import { networkPolicyPrinter } from "../printing/networking.js";
import { objectAt, printedStrategy, type ResourceStrategy } from "../strategy.js";

const rules = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);

export const networkPolicies: ResourceStrategy = {
  ...printedStrategy(networkPolicyPrinter),
  // SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort (pkg/apis/networking/v1/
  // defaults.go): without policyTypes a policy is an Ingress one, and an Egress one too when it
  // has egress rules; a port without a protocol is TCP.
  defaults(o) {
    if (!isObject(o.spec)) return;
    const spec = objectAt(o.spec);
    const egress = rules(spec.egress);
    if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
      spec.policyTypes =
        Array.isArray(spec.egress) && spec.egress.length > 0 ? ["Ingress", "Egress"] : ["Ingress"];
    }
    for (const rule of [...rules(spec.ingress), ...egress]) {
      for (const port of rules(rule.ports)) if (port.protocol === undefined) port.protocol = "TCP";
    }
  },
};
