/**
 * The admissionregistration.k8s.io/v1 printers of kube-apiserver 1.32: webhook configurations
 * count their webhooks, ValidatingAdmissionPolicies their validations, bindings show policy and
 * param.
 */
import { objectAt } from "../../api/types.js";
import { namedPrinter, type Printer } from "../printing.js";
import { goLabelSelector, listAt, str } from "./format.js";

export const webhookConfigurationPrinter: Printer = namedPrinter(
  [
    {
      name: "Webhooks",
      type: "integer",
      description: "Webhooks indicates the number of webhooks registered in this configuration",
    },
  ],
  (o) => [listAt(o.webhooks).length],
);

export const validatingAdmissionPolicyPrinter: Printer = namedPrinter(
  [
    {
      name: "Validations",
      type: "integer",
      description:
        "Validations indicates the number of validation rules defined in this configuration",
    },
    {
      name: "ParamKind",
      type: "string",
      description: "ParamKind specifies the kind of resources used to parameterize this policy",
    },
  ],
  (o) => {
    const spec = objectAt(o.spec);
    const kind = spec.paramKind === undefined ? undefined : objectAt(spec.paramKind);
    return [
      listAt(spec.validations).length,
      kind ? `${str(kind.apiVersion)}/${str(kind.kind)}` : "<unset>",
    ];
  },
);

/**
 * Bindings: a named param as `namespace/name` (`*` when the namespace is not given, as kube
 * cannot tell whether the param is cluster-scoped), a selected one as its Go string.
 */
export const validatingAdmissionPolicyBindingPrinter: Printer = namedPrinter(
  [
    {
      name: "PolicyName",
      type: "string",
      description: "PolicyName indicates the policy definition which the policy binding binded to",
    },
    {
      name: "ParamRef",
      type: "string",
      description: "ParamRef indicates the param resource which sets the configration param",
    },
  ],
  (o) => {
    const spec = objectAt(o.spec);
    let param = "<unset>";
    if (spec.paramRef !== undefined) {
      const ref = objectAt(spec.paramRef);
      const name = str(ref.name);
      if (name !== "") param = `${str(ref.namespace) || "*"}/${name}`;
      else if (ref.selector !== undefined) param = goLabelSelector(ref.selector);
    }
    return [str(spec.policyName), param];
  },
);
