/**
 * Resolves what an expression in a controller's setup code statically denotes: the kind
 * (`kinds.Pod`, `AppClusterKind`, `defineKind({ group: GroupVersion.group, ..., plural: "x" })`)
 * as group and resource, and the reconciler class (`new AppClusterReconciler(...)`) as its
 * declaration. Only syntax is read: consts, object literals, imports of relative modules and of
 * `@opgen/runtime` are followed; anything computed at run time is left unresolved.
 */
import { dirname, join } from "node:path";
import type { ts } from "ts-morph";
import type { ProjectSources } from "../../../source/project-sources.js";
import { typescript } from "../../../source/typescript.js";
import { builtinKind, type KindRef } from "./builtin-kinds.js";

const RUNTIME_MODULE = "@opgen/runtime";
/** Enough for re-export chains and const indirections; stops cycles. */
const MAX_DEPTH = 24;

/** A class declaration and the project-relative file holding it. */
export interface ClassLocation {
  path: string;
  node: ts.ClassDeclaration;
}

type Value =
  | { type: "string"; value: string }
  | { type: "object"; node: ts.ObjectLiteralExpression; path: string }
  | { type: "kind"; ref: KindRef }
  | { type: "runtime"; name: string }
  | { type: "module"; path: string };

/** Where a name is bound: an initializer to evaluate, or an import to follow. */
type Binding =
  | { type: "init"; expr: ts.Expression; path: string }
  | { type: "class"; node: ts.ClassDeclaration; path: string }
  | { type: "import"; module: string; name: string; from: string };

function unwrap(expr: ts.Expression): ts.Expression {
  while (
    typescript.isParenthesizedExpression(expr) ||
    typescript.isAsExpression(expr) ||
    typescript.isSatisfiesExpression(expr) ||
    typescript.isNonNullExpression(expr) ||
    typescript.isTypeAssertionExpression(expr)
  ) {
    expr = expr.expression;
  }
  return expr;
}

export class StaticResolver {
  constructor(private readonly sources: ProjectSources) {}

  /** The kind `expr` (in file `path`) denotes, or undefined when it is not statically visible. */
  kind(expr: ts.Expression, path: string): KindRef | undefined {
    const value = this.evaluate(expr, path, 0);
    return value?.type === "kind" ? value.ref : undefined;
  }

  /**
   * The class whose instance `expr` is: `new X(...)`, or a const initialized with one; the class
   * is looked up in the file or followed through a relative import.
   */
  classOf(expr: ts.Expression, path: string): ClassLocation | undefined {
    let depth = 0;
    expr = unwrap(expr);
    while (typescript.isIdentifier(expr) && depth++ < MAX_DEPTH) {
      const binding = this.lookup(expr.text, expr, path);
      if (binding?.type !== "init") return undefined;
      expr = unwrap(binding.expr);
      path = binding.path;
    }
    if (!typescript.isNewExpression(expr) || !typescript.isIdentifier(expr.expression))
      return undefined;
    return this.classNamed(expr.expression.text, expr.expression, path, 0);
  }

  private classNamed(
    name: string,
    at: ts.Node,
    path: string,
    depth: number,
  ): ClassLocation | undefined {
    return this.classOfBinding(this.lookup(name, at, path), depth);
  }

  private classOfBinding(binding: Binding | undefined, depth: number): ClassLocation | undefined {
    if (!binding || depth > MAX_DEPTH) return undefined;
    if (binding.type === "class") return { path: binding.path, node: binding.node };
    if (binding.type !== "import" || binding.name === "*") return undefined;
    const target = this.resolveModule(binding.from, binding.module);
    if (target === undefined) return undefined;
    return this.classOfBinding(this.exported(target, binding.name, depth + 1), depth + 1);
  }

  private evaluate(expr: ts.Expression, path: string, depth: number): Value | undefined {
    if (depth > MAX_DEPTH) return undefined;
    expr = unwrap(expr);
    if (typescript.isStringLiteral(expr) || typescript.isNoSubstitutionTemplateLiteral(expr)) {
      return { type: "string", value: expr.text };
    }
    if (typescript.isObjectLiteralExpression(expr)) return { type: "object", node: expr, path };
    if (typescript.isIdentifier(expr)) {
      const binding = this.lookup(expr.text, expr, path);
      return binding && this.evaluateBinding(binding, depth + 1);
    }
    if (typescript.isPropertyAccessExpression(expr)) {
      return this.member(this.evaluate(expr.expression, path, depth + 1), expr.name.text, depth);
    }
    if (typescript.isElementAccessExpression(expr)) {
      const key = unwrap(expr.argumentExpression);
      if (!typescript.isStringLiteral(key) && !typescript.isNoSubstitutionTemplateLiteral(key))
        return undefined;
      return this.member(this.evaluate(expr.expression, path, depth + 1), key.text, depth);
    }
    if (typescript.isCallExpression(expr)) {
      const callee = this.evaluate(expr.expression, path, depth + 1);
      const spec = expr.arguments[0];
      if (callee?.type !== "runtime" || callee.name !== "defineKind" || !spec) return undefined;
      return this.defineKind(spec, path, depth + 1);
    }
    return undefined;
  }

  private defineKind(spec: ts.Expression, path: string, depth: number): Value | undefined {
    const object = this.evaluate(spec, path, depth);
    if (object?.type !== "object") return undefined;
    const field = (name: string): string | undefined => {
      const value = this.property(object, name, depth + 1);
      return value?.type === "string" ? value.value : undefined;
    };
    const group = field("group");
    const kind = field("kind");
    const plural = field("plural");
    if (group === undefined || kind === undefined || plural === undefined) return undefined;
    return { type: "kind", ref: { group, kind, plural } };
  }

  private member(target: Value | undefined, name: string, depth: number): Value | undefined {
    if (!target) return undefined;
    switch (target.type) {
      case "runtime":
        if (target.name === "*") return { type: "runtime", name };
        if (target.name === "kinds") {
          const ref = builtinKind(name);
          return ref && { type: "kind", ref };
        }
        return undefined;
      case "module": {
        const binding = this.exported(target.path, name, depth + 1);
        return binding && this.evaluateBinding(binding, depth + 1);
      }
      case "object":
        return this.property(target, name, depth + 1);
      case "kind": {
        const field = name === "group" || name === "kind" || name === "plural" ? name : undefined;
        return field && { type: "string", value: target.ref[field] };
      }
      default:
        return undefined;
    }
  }

  /** A property of an object literal; later properties and spreads win, as at run time. */
  private property(
    object: Extract<Value, { type: "object" }>,
    name: string,
    depth: number,
  ): Value | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const props = object.node.properties;
    for (let i = props.length - 1; i >= 0; i--) {
      const prop = props[i]!;
      if (typescript.isPropertyAssignment(prop) && propertyName(prop.name) === name) {
        return this.evaluate(prop.initializer, object.path, depth + 1);
      }
      if (typescript.isShorthandPropertyAssignment(prop) && prop.name.text === name) {
        return this.evaluate(prop.name, object.path, depth + 1);
      }
      if (typescript.isSpreadAssignment(prop)) {
        const spread = this.evaluate(prop.expression, object.path, depth + 1);
        if (spread?.type === "object") {
          const found = this.property(spread, name, depth + 1);
          if (found) return found;
        } else if (spread?.type === "kind") {
          const found = this.member(spread, name, depth + 1);
          if (found) return found;
        } else {
          // A spread we cannot see may define the property: do not guess past it.
          return undefined;
        }
      }
    }
    return undefined;
  }

  private evaluateBinding(binding: Binding, depth: number): Value | undefined {
    if (binding.type === "init") return this.evaluate(binding.expr, binding.path, depth);
    if (binding.type === "class") return undefined;
    if (binding.module === RUNTIME_MODULE) return { type: "runtime", name: binding.name };
    const target = this.resolveModule(binding.from, binding.module);
    if (!target) return undefined;
    if (binding.name === "*") return { type: "module", path: target };
    const exported = this.exported(target, binding.name, depth + 1);
    return exported && this.evaluateBinding(exported, depth + 1);
  }

  /** The binding of `name` visible at `at`: a const of an enclosing block, or a top-level import. */
  private lookup(name: string, at: ts.Node, path: string): Binding | undefined {
    for (let scope: ts.Node | undefined = at; scope; scope = scope.parent) {
      if (
        typescript.isBlock(scope) ||
        typescript.isSourceFile(scope) ||
        typescript.isModuleBlock(scope)
      ) {
        const found = bindingIn(scope.statements, name, path);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** What module `path` exports as `name`, following `export { } from` and `export *`. */
  private exported(path: string, name: string, depth: number): Binding | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const file = this.sources.syntaxTree(path);
    if (!file) return undefined;
    for (const stmt of file.statements) {
      if (
        typescript.isExportDeclaration(stmt) &&
        stmt.exportClause &&
        typescript.isNamedExports(stmt.exportClause)
      ) {
        for (const spec of stmt.exportClause.elements) {
          if (spec.name.text !== name) continue;
          const local = spec.propertyName?.text ?? spec.name.text;
          if (stmt.moduleSpecifier && typescript.isStringLiteral(stmt.moduleSpecifier)) {
            return { type: "import", module: stmt.moduleSpecifier.text, name: local, from: path };
          }
          return bindingIn(file.statements, local, path);
        }
      }
    }
    const own = bindingIn(file.statements, name, path, true);
    if (own) return own;
    for (const stmt of file.statements) {
      if (
        typescript.isExportDeclaration(stmt) &&
        !stmt.exportClause &&
        stmt.moduleSpecifier &&
        typescript.isStringLiteral(stmt.moduleSpecifier)
      ) {
        const target = this.resolveModule(path, stmt.moduleSpecifier.text);
        const found = target && this.exported(target, name, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** The project file a relative import names (`./x.js` is `./x.ts`, as NodeNext resolves it). */
  private resolveModule(fromPath: string, specifier: string): string | undefined {
    if (!specifier.startsWith(".")) return undefined;
    const base = join(dirname(fromPath), specifier).split("\\").join("/");
    const candidates = /\.(m|c)?js$/.test(base)
      ? [base.replace(/\.(m|c)?js$/, ".$1ts")]
      : [base, `${base}.ts`, `${base}/index.ts`];
    return candidates.find((candidate) => this.sources.text(candidate) !== undefined);
  }
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (
    typescript.isIdentifier(name) ||
    typescript.isStringLiteral(name) ||
    typescript.isNumericLiteral(name)
  )
    return name.text;
  return undefined;
}

function isExported(stmt: ts.Statement): boolean {
  return (
    typescript.canHaveModifiers(stmt) &&
    (typescript.getModifiers(stmt) ?? []).some(
      (m) => m.kind === typescript.SyntaxKind.ExportKeyword,
    )
  );
}

/** A `const name = ...`, a `class name` or an import binding `name` among `statements`. */
function bindingIn(
  statements: ts.NodeArray<ts.Statement>,
  name: string,
  path: string,
  exportedOnly = false,
): Binding | undefined {
  for (const stmt of statements) {
    if (typescript.isClassDeclaration(stmt) && stmt.name?.text === name) {
      if (!exportedOnly || isExported(stmt)) return { type: "class", node: stmt, path };
    } else if (typescript.isVariableStatement(stmt)) {
      if (exportedOnly && !isExported(stmt)) continue;
      if (!(stmt.declarationList.flags & typescript.NodeFlags.Const)) continue;
      for (const decl of stmt.declarationList.declarations) {
        if (typescript.isIdentifier(decl.name) && decl.name.text === name && decl.initializer) {
          return { type: "init", expr: decl.initializer, path };
        }
      }
    } else if (
      !exportedOnly &&
      typescript.isImportDeclaration(stmt) &&
      typescript.isStringLiteral(stmt.moduleSpecifier)
    ) {
      const clause = stmt.importClause;
      if (!clause || clause.isTypeOnly) continue;
      const module = stmt.moduleSpecifier.text;
      const bindings = clause.namedBindings;
      if (bindings && typescript.isNamespaceImport(bindings) && bindings.name.text === name) {
        return { type: "import", module, name: "*", from: path };
      }
      if (bindings && typescript.isNamedImports(bindings)) {
        for (const spec of bindings.elements) {
          if (spec.name.text === name && !spec.isTypeOnly) {
            return { type: "import", module, name: spec.propertyName?.text ?? name, from: path };
          }
        }
      }
    }
  }
  return undefined;
}
