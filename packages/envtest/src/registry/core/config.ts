/** ConfigMaps and Secrets (`pkg/registry/core/{configmap,secret}`): key validation, a Secret's type and stringData, and their columns. */
import { type FieldError, field, OMIT_VALUE } from "@opgen/apimachinery/status";
import { isObject, type KubeObject } from "../../api/types.js";
import { immutableData } from "../immutability.js";
import { doc } from "../printing/describe.js";
import { namedPrinter } from "../printing.js";
import { ensureObject, objectAt, type ResourceStrategy } from "../strategy.js";
import { validateConfigKeys } from "../workload-validation.js";

const count = (o: KubeObject, field: string) => Object.keys(objectAt(o[field])).length;

/** core.MaxConfigMapSize and core.MaxSecretSize: 1 MiB of data. */
const MAX_SIZE = 1024 * 1024;

/** The bytes of a map's values: text as UTF-8, or base64 text decoded (`[]byte` fields). */
function dataSize(m: unknown, base64: boolean): number {
  let size = 0;
  for (const v of Object.values(objectAt(m))) {
    if (typeof v !== "string") continue;
    size += base64 ? Buffer.from(v, "base64").length : Buffer.byteLength(v);
  }
  return size;
}

/**
 * ValidateConfigMap's and ValidateSecret's size limit (pkg/apis/core/validation/validation.go):
 * a ConfigMap's data and binaryData together, blamed on the whole object (the path "" prints
 * as `[]`); a Secret's data, blamed on `data`.
 */
function sizeErrors(o: KubeObject, secret: boolean): FieldError[] {
  if (secret) {
    return dataSize(o.data, true) > MAX_SIZE ? [field.tooLong("data", "", MAX_SIZE)] : [];
  }
  const size = dataSize(o.data, false) + dataSize(o.binaryData, true);
  return size > MAX_SIZE ? [field.tooLong("[]", OMIT_VALUE, MAX_SIZE)] : [];
}

export const configMaps: ResourceStrategy = {
  nameRule: "subdomain",
  validate: (o) => [...validateConfigKeys(o, ["data", "binaryData"]), ...sizeErrors(o, false)],
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
  validate: (o) => [...validateConfigKeys(o, ["data"]), ...sizeErrors(o, true)],
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
