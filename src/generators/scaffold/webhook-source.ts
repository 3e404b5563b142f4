/**
 * The TypeScript of a kind's webhook file (src/webhooks/<version>/<kind>.webhook.ts): rendered
 * whole for a new file (or with --force), or, like Kubebuilder's WebhookUpdater, updated in place
 * when another webhook type is added: the missing class appended, its `with...()` call put before
 * `.complete()` and the imports it needs added, leaving the user's code as it is.
 */
import { defaultWebhookPath } from "@opgen/apimachinery/names";
import { IndentationText, Project, type SourceFile, SyntaxKind } from "ts-morph";
import { CliError } from "../../util/errors.js";
import { renderTemplate } from "./render.js";

export interface SpokeRef {
  version: string;
  /** Module of the spoke's conversion, relative to the webhook file (…/v2/appcluster.conversion.js). */
  module: string;
  /** Exported SpokeConversion (e.g. AppClusterV2Conversion). */
  name: string;
}

export interface WebhookSourceModel {
  header: string;
  kind: string;
  lowerKind: string;
  version: string;
  qualifiedGroup: string;
  plural: string;
  /** Module of the kind's types, relative to the webhook file. */
  typesModule: string;
  /** Module of the hub marker (src/api/<version>/<kind>.conversion.ts), relative to the webhook file. */
  hubModule: string;
  defaulting: boolean;
  validation: boolean;
  conversion: boolean;
  spokes: SpokeRef[];
  /** Custom paths; the default ones are derived as the runtime derives them. */
  defaultingPath?: string;
  validationPath?: string;
}

export type WebhookType = "defaulting" | "validation" | "conversion";

const RUNTIME = "@opgen/runtime";

export function setupFunctionName(kind: string): string {
  return `setup${kind}WebhookWithManager`;
}

function classData(m: WebhookSourceModel) {
  return {
    kind: m.kind,
    lowerKind: m.lowerKind,
    version: m.version,
    qualifiedGroup: m.qualifiedGroup,
    plural: m.plural,
    defaultingPath:
      m.defaultingPath ?? defaultWebhookPath("mutate", m.qualifiedGroup, m.version, m.lowerKind),
    validationPath:
      m.validationPath ?? defaultWebhookPath("validate", m.qualifiedGroup, m.version, m.lowerKind),
  };
}

function pathOption(path: string | undefined): string {
  return path ? `, { path: ${JSON.stringify(path)} }` : "";
}

function withDefaulter(m: WebhookSourceModel): string {
  return `.withDefaulter(new ${m.kind}CustomDefaulter()${pathOption(m.defaultingPath)})`;
}

function withValidator(m: WebhookSourceModel): string {
  return `.withValidator(new ${m.kind}CustomValidator()${pathOption(m.validationPath)})`;
}

/** The `webhookFor(...)` statement, unindented (lines after the first indented by 2). */
function admissionStatement(m: WebhookSourceModel, mgr: string): string {
  const calls = [
    ...(m.defaulting ? [withDefaulter(m)] : []),
    ...(m.validation ? [withValidator(m)] : []),
  ];
  return `webhookFor(${mgr}, ${m.kind}Kind)\n${calls.map((c) => `  ${c}\n`).join("")}  .complete();`;
}

/** The `conversionFor(...)` statement with its comment, unindented. */
function conversionStatement(m: WebhookSourceModel, mgr: string): string {
  const spokes = m.spokes.map((s) => `  .spoke(${JSON.stringify(s.version)}, ${s.name})\n`);
  return [
    `// The API server stores ${m.version} (the hub) and sends ConversionReviews for the other`,
    "// served versions to /convert.",
    `conversionFor(${mgr}, ${m.kind}Hub)\n${spokes.join("")}  .complete();`,
  ].join("\n");
}

const indented = (statement: string) =>
  statement
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");

/** The imports a model needs: module → named imports (`type X` for types only). */
function neededImports(m: WebhookSourceModel): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (module: string, name: string) => {
    const list = out.get(module) ?? [];
    if (!list.includes(name)) list.push(name);
    out.set(module, list);
  };
  add(RUNTIME, "type Manager");
  if (m.defaulting || m.validation) {
    add(RUNTIME, "type AdmissionContext");
    add(RUNTIME, "webhookFor");
    add(m.typesModule, `type ${m.kind}`);
    add(m.typesModule, `${m.kind}Kind`);
  }
  if (m.defaulting) add(RUNTIME, "type CustomDefaulter");
  if (m.validation) {
    add(RUNTIME, "type CustomValidator");
    add(RUNTIME, "type Warnings");
  }
  if (m.conversion) {
    add(RUNTIME, "conversionFor");
    add(m.hubModule, `${m.kind}Hub`);
    for (const s of m.spokes) add(s.module, s.name);
  }
  return out;
}

const bare = (name: string) => name.replace(/^type /, "");
const byName = (a: string, b: string) =>
  bare(a).toLowerCase() < bare(b).toLowerCase()
    ? -1
    : bare(a).toLowerCase() > bare(b).toLowerCase()
      ? 1
      : 0;

/** Import declarations as the scaffold writes them (one line, or one name a line past 100 columns). */
export function renderImports(imports: Map<string, string[]>): string {
  // Packages first, then relative modules, each sorted (as biome orders them).
  const modules = [...imports.keys()].sort((a, b) => {
    const rel = (s: string) => (s.startsWith(".") ? 1 : 0);
    return rel(a) - rel(b) || (a < b ? -1 : a > b ? 1 : 0);
  });
  return modules
    .map((module) => {
      const names = [...imports.get(module)!].sort(byName);
      const oneLine = `import { ${names.join(", ")} } from "${module}";`;
      if (oneLine.length <= 100) return oneLine;
      return `import {\n${names.map((n) => `  ${n},\n`).join("")}} from "${module}";`;
    })
    .join("\n");
}

/** The whole webhook file for the model. */
export function renderWebhookFile(m: WebhookSourceModel): string {
  const mgr = "mgr";
  const body = [
    ...(m.defaulting || m.validation ? [indented(admissionStatement(m, mgr))] : []),
    ...(m.conversion ? [indented(conversionStatement(m, mgr))] : []),
  ].join("\n");
  const classes = [
    ...(m.defaulting ? [renderTemplate("webhook/defaulter.ts.hbs", classData(m))] : []),
    ...(m.validation ? [renderTemplate("webhook/validator.ts.hbs", classData(m))] : []),
  ];
  return `${m.header}${renderImports(neededImports(m))}

// EDIT THIS FILE! THIS IS SCAFFOLDING FOR YOU TO OWN!

/**
 * Registers the ${m.kind} ${m.version} webhooks with the manager's webhook server (HTTPS on
 * --webhook-port, 9443 by default); main.ts calls it unless ENABLE_WEBHOOKS=false.
 */
export function ${setupFunctionName(m.kind)}(${mgr}: Manager): void {
${body}
}
${classes.map((c) => `\n${c}`).join("")}`;
}

/**
 * Adds the webhook types `add` to an existing webhook file (Kubebuilder's updater): the class is
 * appended unless the file declares it, its registration goes before `.complete()` of the
 * `webhookFor(...)` chain (or a new chain at the top of the setup function), conversion goes at the
 * end of the setup function, and missing imports are added.
 */
export function updateWebhookFile(
  text: string,
  file: string,
  m: WebhookSourceModel,
  add: WebhookType[],
): string {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces },
  });
  const source = project.createSourceFile("webhook.ts", text);
  const setupName = setupFunctionName(m.kind);
  const setup = source.getFunction(setupName);
  const body = setup?.getBody();
  if (!setup || !body?.isKind(SyntaxKind.Block)) {
    throw new CliError(
      `${file}: no function ${setupName} to register the ${add.join(" and ")} webhook in; restore it or pass --force to regenerate the file`,
    );
  }
  const mgr = setup.getParameters()[0]?.getName() ?? "mgr";
  const admission = add.filter((t) => t !== "conversion");
  if (admission.length > 0) {
    const calls = [
      ...(admission.includes("defaulting") ? [withDefaulter(m)] : []),
      ...(admission.includes("validation") ? [withValidator(m)] : []),
    ];
    const complete = body
      .getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)
      .find(
        (p) =>
          p.getName() === "complete" && /^\s*webhookFor\s*\(/.test(p.getExpression().getText()),
      );
    if (complete) {
      // New calls go on their own lines before `.complete()`, indented like it.
      const full = source.getFullText();
      const dot = complete.getNameNode().getStart() - 1;
      const lineStart = full.lastIndexOf("\n", dot) + 1;
      const indent = /^[ \t]*/.exec(full.slice(lineStart))![0];
      const sameLine = full.slice(lineStart, dot).trim() !== "";
      const at = complete.getExpression().getEnd();
      source.insertText(
        at,
        calls.map((c) => `\n${sameLine ? `${indent}  ` : indent}${c}`).join(""),
      );
    } else {
      const only: WebhookSourceModel = {
        ...m,
        defaulting: admission.includes("defaulting"),
        validation: admission.includes("validation"),
      };
      body.insertStatements(0, admissionStatement(only, mgr));
    }
  }
  if (add.includes("conversion")) {
    // Looked up again: the text edit above replaced the tree.
    const block = source.getFunction(setupName)?.getBody();
    if (block?.isKind(SyntaxKind.Block)) block.addStatements(conversionStatement(m, mgr));
  }
  const only: WebhookSourceModel = {
    ...m,
    defaulting: add.includes("defaulting"),
    validation: add.includes("validation"),
    conversion: add.includes("conversion"),
  };
  addImports(source, neededImports(only));
  let out = source.getFullText();
  for (const [type, className, template] of [
    ["defaulting", `${m.kind}CustomDefaulter`, "webhook/defaulter.ts.hbs"],
    ["validation", `${m.kind}CustomValidator`, "webhook/validator.ts.hbs"],
  ] as const) {
    if (add.includes(type) && !source.getClass(className)) {
      out = `${out.replace(/\n*$/, "\n")}\n${renderTemplate(template, classData(m))}`;
    }
  }
  return out;
}

function addImports(source: SourceFile, imports: Map<string, string[]>): void {
  for (const [module, names] of imports) {
    const decls = source
      .getImportDeclarations()
      .filter((d) => d.getModuleSpecifierValue() === module);
    const have = new Set(decls.flatMap((d) => d.getNamedImports().map((n) => n.getName())));
    const missing = names.filter((n) => !have.has(bare(n)));
    if (missing.length === 0) continue;
    const decl = decls.find(
      (d) => !d.isTypeOnly() && !d.getNamespaceImport() && !d.getDefaultImport(),
    );
    if (decl) {
      // Rewrite the declaration with every name, sorted and wrapped as the scaffold writes it.
      const existing = decl
        .getNamedImports()
        .map((n) => `${n.isTypeOnly() ? "type " : ""}${n.getText().replace(/^type\s+/, "")}`);
      decl.replaceWithText(renderImports(new Map([[module, [...existing, ...missing]]])));
      continue;
    }
    // A new declaration goes where the scaffold's sorting puts it: packages, then relative modules.
    const text = renderImports(new Map([[module, missing]]));
    const rank = (s: string) => `${s.startsWith(".") ? 1 : 0}${s}`;
    const next = source
      .getImportDeclarations()
      .find((d) => rank(d.getModuleSpecifierValue()) > rank(module));
    if (next) source.insertText(next.getStart(), `${text}\n`);
    else {
      const last = source.getImportDeclarations().at(-1);
      if (last) source.insertText(last.getEnd(), `\n${text}`);
      else source.insertText(0, `${text}\n`);
    }
  }
}
