/** The networking.k8s.io/v1 printers of kube-apiserver 1.32 for NetworkPolicies and IngressClasses. */
import { objectAt } from "../../api/types.js";
import { namedPrinter, type Printer } from "../printing.js";
import { doc } from "./describe.js";
import { labelSelector, str } from "./format.js";

export const networkPolicyPrinter: Printer = namedPrinter(
  [
    {
      name: "Pod-Selector",
      type: "string",
      // kube cites extensions/v1beta1.NetworkPolicySpec, worded as networking/v1's.
      description: doc("api.networking.v1.NetworkPolicySpec", "podSelector"),
    },
  ],
  (o) => [labelSelector(objectAt(o.spec).podSelector ?? {})],
);

/** IngressClasses: parameters as `Kind.apiGroup/name` (`Kind/name` without a group). */
export const ingressClassPrinter: Printer = namedPrinter(
  [
    {
      name: "Controller",
      type: "string",
      description: "Controller that is responsible for handling this class",
    },
    {
      name: "Parameters",
      type: "string",
      description: "A reference to a resource with additional parameters",
    },
  ],
  (o) => {
    const spec = objectAt(o.spec);
    let parameters = "<none>";
    if (spec.parameters !== undefined) {
      const p = objectAt(spec.parameters);
      const group = typeof p.apiGroup === "string" ? `.${p.apiGroup}` : "";
      parameters = `${str(p.kind)}${group}/${str(p.name)}`;
    }
    return [str(spec.controller), parameters];
  },
);
