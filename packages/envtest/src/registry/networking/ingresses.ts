/**
 * Ingresses (`pkg/registry/networking/ingress`): every HTTP path needs a `pathType` and a
 * backend, and kubectl's columns.
 */
import type { FieldError } from "@opgen/apimachinery/status";
import type { JsonObject } from "../../api/types.js";
import { ingressHosts, loadBalancerIngress } from "../printing/format.js";
import { namedPrinter } from "../printing.js";
import { objectAt, type ResourceStrategy } from "../strategy.js";

const PATH_TYPES = ["Exact", "ImplementationSpecific", "Prefix"];

export const ingresses: ResourceStrategy = {
  nameRule: "subdomain",
  validate(o) {
    const errs: FieldError[] = [];
    const rules = (objectAt(o.spec).rules ?? []) as JsonObject[];
    rules.forEach((rule, i) => {
      const paths = (objectAt(rule.http).paths ?? []) as JsonObject[];
      paths.forEach((p, j) => {
        const at = `spec.rules[${i}].http.paths[${j}]`;
        if (p.pathType === undefined)
          errs.push({
            type: "FieldValueRequired",
            field: `${at}.pathType`,
            detail: "pathType must be specified",
          });
        else if (!PATH_TYPES.includes(String(p.pathType)))
          errs.push({
            type: "FieldValueNotSupported",
            field: `${at}.pathType`,
            value: p.pathType,
            detail: 'supported values: "Exact", "ImplementationSpecific", "Prefix"',
          });
        if (
          p.pathType !== "ImplementationSpecific" &&
          p.pathType !== undefined &&
          !String(p.path ?? "").startsWith("/")
        )
          errs.push({
            type: "FieldValueInvalid",
            field: `${at}.path`,
            value: p.path ?? "",
            detail: "must be an absolute path",
          });
      });
    });
    return errs;
  },
  printer: () =>
    namedPrinter(
      [
        {
          name: "Class",
          type: "string",
          description:
            "The name of the IngressClass resource that should be used for additional configuration",
        },
        {
          name: "Hosts",
          type: "string",
          description: "Hosts that incoming requests are matched against before the ingress rule",
        },
        {
          name: "Address",
          type: "string",
          description: "Address is a list containing ingress points for the load-balancer",
        },
        { name: "Ports", type: "string", description: "Ports of TLS configurations that open" },
      ],
      (o) => {
        const spec = objectAt(o.spec);
        return [
          spec.ingressClassName ?? "<none>",
          ingressHosts(spec.rules),
          loadBalancerIngress(objectAt(o.status).loadBalancer),
          Array.isArray(spec.tls) && spec.tls.length > 0 ? "80, 443" : "80",
        ];
      },
    ),
};
