/**
 * `@printcolumn` values kube-apiserver refuses at CRD creation (`ValidateCustomResourceColumnDefinition`)
 * or cannot print: a JSONPath that is not a simple path starting with `.` or does not parse (with
 * the parser envtest prints columns with), a format outside kube's set, a negative priority.
 */
import { parseJsonPath } from "@opgen/apimachinery/jsonpath";
import type { Diagnostic } from "../../source/diagnostics.js";
import type { KindVersion } from "./assemble.js";

/** customResourceColumnDefinitionFormats in apiextensions validation. */
const FORMATS = ["int32", "int64", "float", "double", "byte", "date", "date-time", "password"];

export function printColumnProblems(versions: readonly KindVersion[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const v of versions) {
    for (const m of v.markers) {
      if (m.def.name !== "printcolumn") continue;
      const at = (message: string): Diagnostic => ({
        severity: "error",
        ...m.pos,
        message: `@printcolumn ${JSON.stringify(m.args.name)}: ${message}`,
      });
      const path = String(m.args.jsonPath ?? "");
      if (!path.startsWith(".")) {
        out.push(
          at(`jsonPath "${path}" must be a simple JSON path starting with . (e.g. .status.phase)`),
        );
      } else {
        try {
          parseJsonPath(path);
        } catch (e) {
          out.push(at(`jsonPath "${path}" does not parse: ${(e as Error).message}`));
        }
      }
      const format = m.args.format;
      if (typeof format === "string" && format !== "" && !FORMATS.includes(format)) {
        out.push(at(`format "${format}" must be one of ${FORMATS.join(", ")}`));
      }
      const priority = m.args.priority;
      if (typeof priority === "number" && priority < 0) {
        out.push(
          at(
            `priority ${priority} must not be negative (0 is the standard view, higher only with -o wide)`,
          ),
        );
      }
    }
  }
  return out;
}
