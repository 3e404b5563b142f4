/**
 * Finds the controllers a project sets up and the kinds each one watches, from the builder calls of
 * `docs/dev/contracts.md`: `mgr.controller(Kind)` (the kind it reconciles), `.owns(Kind)`,
 * `.watches(Kind, mapFn)` and `.complete(new SomeReconciler(...))`. Chains written fluently or
 * through a const (`const b = mgr.controller(K); b.owns(kinds.Pod);`) are both read.
 */
import type { ts } from "ts-morph";
import type { ProjectSources } from "../../../source/project-sources.js";
import { typescript } from "../../../source/typescript.js";
import type { SourcePosition } from "../rule.js";
import type { KindRef } from "./builtin-kinds.js";
import { type ClientCall, findClientCalls } from "./client-calls.js";
import type { ClassLocation, StaticResolver } from "./static-resolver.js";

export type WatchRelation = "for" | "owns" | "watches";

export interface WatchedKind {
  relation: WatchRelation;
  /** The argument as written, for messages when it cannot be resolved. */
  source: string;
  /** Undefined when the kind is not statically visible. */
  kind: KindRef | undefined;
  position: SourcePosition;
}

export interface ControllerSetup {
  /** Where `.controller(...)` is called. */
  position: SourcePosition;
  watched: WatchedKind[];
  /** The name given with `.named("...")`; by default a controller is named after its kind. */
  name?: string;
  /**
   * Whether the chain ends in `.complete(...)`. A `.controller(x)` call with neither a visible kind
   * nor `complete` is some other API's method and is not reported.
   */
  completes: boolean;
  /** The reconciler passed to `.complete(...)`, when it is statically visible. */
  reconciler: ClassLocation | undefined;
  /** The reconciler's client calls that name their kind. */
  clientCalls: ClientCall[];
}

const RELATIONS: Readonly<Record<string, WatchRelation>> = {
  controller: "for",
  owns: "owns",
  watches: "watches",
};

function positionOf(file: ts.SourceFile, node: ts.Node): SourcePosition {
  const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return { file: file.fileName, line: line + 1, column: character + 1 };
}

/** The method calls made on `start`'s value fluently: `start.a(x).b(y)` gives a and b. */
function chainCalls(start: ts.Expression): { calls: ts.CallExpression[]; end: ts.Expression } {
  const calls: ts.CallExpression[] = [];
  let node: ts.Expression = start;
  while (
    typescript.isPropertyAccessExpression(node.parent) &&
    node.parent.expression === node &&
    typescript.isCallExpression(node.parent.parent) &&
    node.parent.parent.expression === node.parent
  ) {
    node = node.parent.parent;
    calls.push(node as ts.CallExpression);
  }
  return { calls, end: node };
}

/** The const a chain's value is stored in (`const b = mgr.controller(K)...`), if any. */
function storedIn(end: ts.Expression): ts.Identifier | undefined {
  let node: ts.Node = end;
  while (
    typescript.isParenthesizedExpression(node.parent) ||
    typescript.isAwaitExpression(node.parent)
  ) {
    node = node.parent;
  }
  const decl = node.parent;
  if (
    typescript.isVariableDeclaration(decl) &&
    decl.initializer === node &&
    typescript.isIdentifier(decl.name)
  ) {
    return decl.name;
  }
  return undefined;
}

/** Fluent chains started on the variable `name` inside `scope`. */
function chainsOn(scope: ts.Node, name: ts.Identifier): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (typescript.isIdentifier(node) && node.text === name.text && node !== name) {
      calls.push(...chainCalls(node).calls);
    }
    typescript.forEachChild(node, visit);
  };
  visit(scope);
  return calls;
}

function methodName(call: ts.CallExpression): string | undefined {
  return typescript.isPropertyAccessExpression(call.expression)
    ? call.expression.name.text
    : undefined;
}

/** The controllers set up in `path`. */
export function findControllerSetups(
  sources: ProjectSources,
  resolver: StaticResolver,
  path: string,
): ControllerSetup[] {
  const text = sources.text(path);
  // Cheap pre-filter: parse only files that call a `controller` method.
  if (!text || !/\.\s*controller\s*[<(]/.test(text)) return [];
  const file = sources.syntaxTree(path)!;
  const setups: ControllerSetup[] = [];

  const visit = (node: ts.Node): void => {
    if (
      typescript.isCallExpression(node) &&
      methodName(node) === "controller" &&
      node.arguments.length >= 1 &&
      typescript.isPropertyAccessExpression(node.expression)
    ) {
      const setup = analyze(node);
      if (setup.completes || setup.watched[0]?.kind) setups.push(setup);
    }
    typescript.forEachChild(node, visit);
  };

  const analyze = (controllerCall: ts.CallExpression): ControllerSetup => {
    const { calls, end } = chainCalls(controllerCall);
    const variable = storedIn(end);
    if (variable) {
      let scope: ts.Node = variable;
      while (!typescript.isBlock(scope.parent) && !typescript.isSourceFile(scope.parent))
        scope = scope.parent;
      calls.push(...chainsOn(scope.parent, variable));
    }
    const watched: WatchedKind[] = [];
    let reconciler: ClassLocation | undefined;
    let name: string | undefined;
    let completes = false;
    for (const call of [controllerCall, ...calls]) {
      const method = methodName(call);
      const arg = call.arguments[0];
      if (!method || !arg) continue;
      const relation = Object.hasOwn(RELATIONS, method) ? RELATIONS[method] : undefined;
      if (relation) {
        watched.push({
          relation,
          source: arg.getText(file),
          kind: resolver.kind(arg, path),
          position: positionOf(file, (call.expression as ts.PropertyAccessExpression).name),
        });
      } else if (method === "complete") {
        completes = true;
        reconciler = resolver.classOf(arg, path);
      } else if (method === "named" && typescript.isStringLiteralLike(arg)) {
        name = arg.text;
      }
    }
    return {
      position: positionOf(file, controllerCall),
      watched,
      reconciler,
      clientCalls: reconciler ? findClientCalls(reconciler, resolver) : [],
      completes,
      ...(name !== undefined ? { name } : {}),
    };
  };

  visit(file);
  return setups;
}
