/**
 * A version's printer columns and scale subresource as apiextensions validates them
 * (`validation.go` ValidateCustomResourceColumnDefinition, ValidateCustomResourceDefinitionSubresources):
 * a column needs a name, a type among kube's five and a format among its eight, and every path
 * is a simple JSON path starting with `.` (the scale paths under `.spec`/`.status`). kube does
 * not check a column's priority.
 */
import type { FieldError } from "../status/index.js";
import type { CustomResourceDefinitionVersion } from "./types.js";

// kube's sets.NewString(...).List(): sorted, joined with "," in the messages.
const COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"];
const COLUMN_FORMATS = [
  "byte",
  "date",
  "date-time",
  "double",
  "float",
  "int32",
  "int64",
  "password",
];

/** validateSimpleJSONPath. */
function simpleJsonPathErrors(path: string, field: string): FieldError[] {
  if (path.length === 0) {
    return [{ type: "FieldValueInvalid", field, value: path, detail: "must not be empty" }];
  }
  if (!path.startsWith(".")) {
    return [
      {
        type: "FieldValueInvalid",
        field,
        value: path,
        detail: "must be a simple json path starting with .",
      },
    ];
  }
  return [];
}

/** ValidateCustomResourceColumnDefinition for each of a version's columns at `path`. */
export function printerColumnErrors(
  v: CustomResourceDefinitionVersion,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  (v.additionalPrinterColumns ?? []).forEach((col, i) => {
    const at = `${path}.additionalPrinterColumns[${i}]`;
    const name = typeof col.name === "string" ? col.name : "";
    const type = typeof col.type === "string" ? col.type : "";
    const format = typeof col.format === "string" ? col.format : "";
    const jsonPath = typeof col.jsonPath === "string" ? col.jsonPath : "";
    if (!name) errs.push({ type: "FieldValueRequired", field: `${at}.name`, detail: "" });
    const types = `must be one of ${COLUMN_TYPES.join(",")}`;
    if (!type) errs.push({ type: "FieldValueRequired", field: `${at}.type`, detail: types });
    else if (!COLUMN_TYPES.includes(type)) {
      errs.push({ type: "FieldValueInvalid", field: `${at}.type`, value: type, detail: types });
    }
    if (format && !COLUMN_FORMATS.includes(format)) {
      errs.push({
        type: "FieldValueInvalid",
        field: `${at}.format`,
        value: format,
        detail: `must be one of ${COLUMN_FORMATS.join(",")}`,
      });
    }
    // kube's internal field is JSONPath, and its errors name it so.
    if (!jsonPath) errs.push({ type: "FieldValueRequired", field: `${at}.JSONPath`, detail: "" });
    else errs.push(...simpleJsonPathErrors(jsonPath, `${at}.JSONPath`));
  });
  return errs;
}

/** One scale path: required (but the selector), simple, under one of `prefixes`. */
function scalePathErrors(
  path: string | undefined,
  field: string,
  prefixes: string[],
  where: string,
  required: boolean,
): FieldError[] {
  if (typeof path !== "string" || path.length === 0) {
    return required ? [{ type: "FieldValueRequired", field, detail: "" }] : [];
  }
  const simple = simpleJsonPathErrors(path, field);
  if (simple.length > 0) return simple;
  if (prefixes.some((p) => path.startsWith(p))) return [];
  return [
    {
      type: "FieldValueInvalid",
      field,
      value: path,
      detail: `should be a json path under ${where}`,
    },
  ];
}

/** ValidateCustomResourceDefinitionSubresources: the scale subresource's paths. */
export function subresourceErrors(v: CustomResourceDefinitionVersion, path: string): FieldError[] {
  const scale = v.subresources?.scale;
  if (!scale || typeof scale !== "object") return [];
  const at = `${path}.subresources.scale`;
  return [
    ...scalePathErrors(scale.specReplicasPath, `${at}.specReplicasPath`, [".spec."], ".spec", true),
    ...scalePathErrors(
      scale.statusReplicasPath,
      `${at}.statusReplicasPath`,
      [".status."],
      ".status",
      true,
    ),
    ...scalePathErrors(
      scale.labelSelectorPath,
      `${at}.labelSelectorPath`,
      [".spec.", ".status."],
      "either .spec or .status",
      false,
    ),
  ];
}
