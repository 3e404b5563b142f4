/**
 * Edits of the project's src/main.ts at its insertion points (`// +opgen:scaffold:imports`,
 * `// +opgen:scaffold:controllers`): new code goes on the line before the marker comment, and
 * only if the syntax tree shows it is not there yet, so running twice changes nothing and user
 * code around the markers is never touched.
 */
import { Project, type SourceFile, SyntaxKind, ts } from "ts-morph";
import { CliError } from "../../util/errors.js";

export const IMPORTS_MARKER = "+opgen:scaffold:imports";
export const CONTROLLERS_MARKER = "+opgen:scaffold:controllers";
export const WEBHOOKS_MARKER = "+opgen:scaffold:webhooks";

export interface ControllerRegistration {
  /** Module specifier of the controller, relative to main.ts (e.g. ./controllers/appcluster.controller.js). */
  module: string;
  /** The exported setup function, called with the manager (e.g. setupAppClusterController). */
  setupFunction: string;
  /** The manager variable in main.ts. */
  managerVariable?: string;
}

/** Returns main.ts with the controller imported and registered (unchanged if it already is). */
export function registerController(
  text: string,
  file: string,
  reg: ControllerRegistration,
): string {
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  let source = project.createSourceFile("main.ts", text);
  const mgr = reg.managerVariable ?? "mgr";

  if (!hasNamedImport(source, reg.module, reg.setupFunction)) {
    const pos = markerLineStart(source, IMPORTS_MARKER, file);
    source = insertAt(
      project,
      source,
      pos,
      `import { ${reg.setupFunction} } from "${reg.module}";\n`,
    );
  }
  if (!callsFunction(source, reg.setupFunction)) {
    const pos = markerLineStart(source, CONTROLLERS_MARKER, file);
    source = insertAt(project, source, pos, `${reg.setupFunction}(${mgr});\n`);
  }
  const errors = (source.compilerNode as unknown as { parseDiagnostics: ts.Diagnostic[] })
    .parseDiagnostics;
  if (errors.length > 0) {
    const message = ts.flattenDiagnosticMessageText(errors[0]!.messageText, " ");
    throw new CliError(
      `${file}: would not parse after the edit (${message}); fix ${file} and run again`,
    );
  }
  return source.getFullText();
}

export interface WebhookRegistration {
  /** Module specifier of the webhook file, relative to main.ts (e.g. ./webhooks/v1/appcluster.webhook.js). */
  module: string;
  /** The exported setup function (e.g. setupAppClusterWebhookWithManager). */
  setupFunction: string;
  /** Local name used when `setupFunction` is already imported from another module (another version). */
  alias: string;
  managerVariable?: string;
}

/**
 * Returns main.ts with the webhook setup imported and called at `// +opgen:scaffold:webhooks`,
 * guarded by ENABLE_WEBHOOKS as Kubebuilder's main.go does (unchanged if it already is). A main.ts
 * from before that insertion point existed gets it right after `// +opgen:scaffold:controllers`.
 */
export function registerWebhook(text: string, file: string, reg: WebhookRegistration): string {
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  let source = project.createSourceFile("main.ts", text);
  const mgr = reg.managerVariable ?? "mgr";

  let local = importedName(source, reg.module, reg.setupFunction);
  if (!local) {
    local = isBound(source, reg.setupFunction) ? reg.alias : reg.setupFunction;
    const spec = local === reg.setupFunction ? local : `${reg.setupFunction} as ${local}`;
    const pos = markerLineStart(source, IMPORTS_MARKER, file);
    source = insertAt(project, source, pos, `import { ${spec} } from "${reg.module}";\n`);
  }
  if (!callsFunction(source, local)) {
    if (!hasMarker(source, WEBHOOKS_MARKER)) {
      const controllers = markerLineStart(source, CONTROLLERS_MARKER, file);
      const lineEnd = source.getFullText().indexOf("\n", controllers);
      const after = lineEnd < 0 ? source.getFullText().length : lineEnd + 1;
      source = insertAt(project, source, after, `// ${WEBHOOKS_MARKER}\n`);
    }
    const pos = markerLineStart(source, WEBHOOKS_MARKER, file);
    const indent = /^[ \t]*/.exec(source.getFullText().slice(pos))![0];
    source = insertAt(
      project,
      source,
      pos,
      `if (process.env.ENABLE_WEBHOOKS !== "false") {\n${indent}  ${local}(${mgr});\n${indent}}\n`,
    );
  }
  checkParses(source, file);
  return source.getFullText();
}

function checkParses(source: SourceFile, file: string): void {
  const errors = (source.compilerNode as unknown as { parseDiagnostics: ts.Diagnostic[] })
    .parseDiagnostics;
  if (errors.length > 0) {
    const message = ts.flattenDiagnosticMessageText(errors[0]!.messageText, " ");
    throw new CliError(
      `${file}: would not parse after the edit (${message}); fix ${file} and run again`,
    );
  }
}

/** The local name under which `name` is imported from `module`, if it is. */
function importedName(source: SourceFile, module: string, name: string): string | undefined {
  for (const decl of source.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== module) continue;
    const named = decl.getNamedImports().find((n) => n.getName() === name);
    if (named) return named.getAliasNode()?.getText() ?? name;
  }
  return undefined;
}

/** True when an import already binds `name` (from any module). */
function isBound(source: SourceFile, name: string): boolean {
  return source
    .getImportDeclarations()
    .some((decl) =>
      decl.getNamedImports().some((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name),
    );
}

function hasMarker(source: SourceFile, marker: string): boolean {
  const pattern = new RegExp(`^[ \\t]*//[ \\t]*${marker.replace(/[+]/g, "\\+")}[ \\t]*$`, "m");
  return pattern.test(source.getFullText());
}

function hasNamedImport(source: SourceFile, module: string, name: string): boolean {
  return source
    .getImportDeclarations()
    .some(
      (decl) =>
        decl.getModuleSpecifierValue() === module &&
        decl.getNamedImports().some((n) => n.getName() === name),
    );
}

function callsFunction(source: SourceFile, name: string): boolean {
  return source
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .some((call) => call.getExpression().getText() === name);
}

/** The offset of the start of the line holding the `// <marker>` comment. */
function markerLineStart(source: SourceFile, marker: string, file: string): number {
  const text = source.getFullText();
  const pattern = new RegExp(`^[ \\t]*//[ \\t]*${marker.replace(/[+]/g, "\\+")}[ \\t]*$`, "m");
  const match = pattern.exec(text);
  if (!match) {
    throw new CliError(
      `${file}: insertion point \`// ${marker}\` not found; put it back on its own line where opgen should add code`,
    );
  }
  // The marker must be a real comment, not text inside a string or template literal.
  const node = source.getDescendantAtPos(match.index + match[0].indexOf("//"));
  if (
    node &&
    (node.isKind(SyntaxKind.StringLiteral) ||
      node.isKind(SyntaxKind.TemplateExpression) ||
      node.isKind(SyntaxKind.NoSubstitutionTemplateLiteral))
  ) {
    throw new CliError(
      `${file}: insertion point \`// ${marker}\` is inside a string; put it on its own line`,
    );
  }
  return match.index;
}

function insertAt(project: Project, source: SourceFile, pos: number, code: string): SourceFile {
  const text = source.getFullText();
  const indent = /^[ \t]*/.exec(text.slice(pos))![0];
  const next = text.slice(0, pos) + indent + code + text.slice(pos);
  project.removeSourceFile(source);
  return project.createSourceFile("main.ts", next);
}
