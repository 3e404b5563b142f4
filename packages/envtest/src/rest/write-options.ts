/**
 * The query options of a write, validated before its body is read, as kube's handlers run
 * `ValidateCreateOptions`, `ValidateUpdateOptions`, `ValidatePatchOptions` and
 * `ValidateDeleteOptions` (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/
 * validation.go): a 422 Invalid of the options kind listing every bad option.
 */
import { errors, type FieldError, goStrings } from "@opgen/apimachinery/status";

const OPTIONS_KIND: Partial<Record<string, string>> = {
  create: "CreateOptions",
  update: "UpdateOptions",
  patch: "PatchOptions",
  delete: "DeleteOptions",
  deletecollection: "DeleteOptions",
};

/** `dryRun` values other than `All` (ValidateDryRun). */
export function dryRunErrors(values: readonly string[]): FieldError[] {
  if (values.every((v) => v === "All")) return [];
  return [
    {
      type: "FieldValueNotSupported",
      field: "dryRun",
      value: goStrings(values),
      detail: 'supported values: "All"',
    },
  ];
}

/** fieldManager (ValidateFieldManager) and dryRun of a write's query; reads pass. */
export function validateWriteOptions(verb: string, query: URLSearchParams): void {
  const kind = OPTIONS_KIND[verb];
  if (!kind) return;
  const errs: FieldError[] = [];
  const fieldManager = query.get("fieldManager");
  if (
    kind !== "DeleteOptions" &&
    fieldManager !== null &&
    (fieldManager.length > 128 || !/^[\x20-\x7e]*$/.test(fieldManager))
  ) {
    errs.push({
      type: "FieldValueTooLong",
      field: "fieldManager",
      detail: "may not be more than 128 bytes",
    });
  }
  errs.push(...dryRunErrors(query.getAll("dryRun")));
  if (errs.length) throw errors.invalidOptions(kind, errs);
}
