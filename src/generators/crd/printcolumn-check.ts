/**
 * `@printcolumn` values kube-apiserver accepts but that cannot work, refused at the marker in
 * opgen's words: a JSONPath that does not parse (kube stores the CRD, then cannot print its
 * table; kube's own checks, a leading `.`, the type and format, are the CRD validator's:
 * kube-checks.ts), and a negative priority (kube stores it; kubectl shows only priority 0 in its
 * standard view, so such a column is one nobody asked for).
 */
import { parseJsonPath } from "@opgen/apimachinery/jsonpath";
import type { Diagnostic } from "../../source/diagnostics.js";
import type { KindVersion } from "./assemble.js";

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
      if (path.startsWith(".")) {
        try {
          parseJsonPath(path);
        } catch (e) {
          out.push(at(`jsonPath "${path}" does not parse: ${(e as Error).message}`));
        }
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
