/** ConfigMaps and Secrets (`pkg/registry/core/{configmap,secret}`): key validation, a Secret's type and stringData, and their columns. */
import { isObject, type KubeObject } from "../../api/types.js";
import { immutableData } from "../immutability.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validateConfigKeys } from "../workload-validation.js";

const count = (o: KubeObject, field: string) => Object.keys(objectAt(o[field])).length;

export const configMaps: ResourceStrategy = {
  nameRule: "subdomain",
  validate: (o) => validateConfigKeys(o, ["data", "binaryData"]),
  validateUpdate: immutableData(["data", "binaryData"]),
  printer: () =>
    namedPrinter(
      [{ name: "Data", type: "string", description: doc("api.core.v1.ConfigMap", "data") }],
      (o) => [count(o, "data") + count(o, "binaryData")],
    ),
};

export const secrets: ResourceStrategy = {
  nameRule: "subdomain",
  defaults(o) {
    if (o.type === undefined) o.type = "Opaque";
    if (isObject(o.stringData)) {
      const data = ensureObject(o, "data");
      for (const [k, v] of Object.entries(o.stringData)) {
        data[k] = Buffer.from(String(v)).toString("base64");
      }
      delete o.stringData;
    }
  },
  validate: (o) => validateConfigKeys(o, ["data"]),
  validateUpdate(o, old) {
    const errs = immutableData(["data"])(o, old);
    if (o.type !== old.type)
      errs.unshift({
        type: "FieldValueInvalid",
        field: "type",
        value: o.type ?? "",
        detail: "field is immutable",
      });
    return errs;
  },
  printer: () =>
    namedPrinter(
      [
        { name: "Type", type: "string", description: doc("api.core.v1.Secret", "type") },
        { name: "Data", type: "string", description: doc("api.core.v1.Secret", "data") },
      ],
      (o) => [o.type ?? "", count(o, "data")],
    ),
};
