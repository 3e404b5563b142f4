/**
 * The kinds `opgen create api` refuses before it writes anything: those `opgen manifests` would
 * then refuse (names-check's rule, one home), and a name the scaffolded types file imports beside
 * the kind (a kind `Condition` would shadow the `Condition` its status list is made of).
 */
import { CliError } from "../../util/errors.js";
import { lowerKind } from "../../util/naming.js";
import { kindNameProblem } from "../crd/names-check.js";
import { templateImports } from "./render.js";

const TYPES_TEMPLATE = "api/types.ts.hbs";

export function checkNewKind(kind: string): void {
  const problem = kindNameProblem(kind);
  if (problem) {
    throw new CliError(
      `invalid --kind "${kind}": ${problem}, so opgen manifests would refuse it; choose another kind`,
    );
  }
  if (templateImports(TYPES_TEMPLATE).includes(kind)) {
    throw new CliError(
      `invalid --kind "${kind}": the scaffolded ${lowerKind(kind)}.types.ts imports a ${kind} of its own, which a kind of that name would hide, so the file would not compile; choose another kind`,
    );
  }
}
