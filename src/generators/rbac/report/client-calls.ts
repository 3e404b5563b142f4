/**
 * Finds the client calls of a reconciler class that name their kind, and so their verb, in the
 * source: `client.get(Kind, key)`, `client.list(Kind, opts)` and `client.delete(Kind, key)` (the
 * `@opgen/runtime` Client signatures). Writes (`create`, `update`, `patch`, `apply`, `delete(obj)`)
 * take an object whose kind is not visible without a type checker, so they are not read.
 */
import type { ts } from "ts-morph";
import { typescript } from "../../../source/typescript.js";
import type { SourcePosition } from "../rule.js";
import type { KindRef } from "./builtin-kinds.js";
import type { ClassLocation, StaticResolver } from "./static-resolver.js";

export type ClientVerb = "get" | "list" | "delete";

export interface ClientCall {
  verb: ClientVerb;
  kind: KindRef;
  /** `{ uncached: true }` was passed: the read goes to the API server even for cached kinds. */
  uncached: boolean;
  position: SourcePosition;
}

/** Index of the options argument of each method. */
const OPTIONS_ARG: Readonly<Record<ClientVerb, number>> = { get: 2, list: 1, delete: 2 };

function isClientVerb(name: string): name is ClientVerb {
  return Object.hasOwn(OPTIONS_ARG, name);
}

function passesUncached(call: ts.CallExpression, verb: ClientVerb): boolean {
  const opts = call.arguments[OPTIONS_ARG[verb]];
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return false;
  return opts.properties.some(
    (p) =>
      typescript.isPropertyAssignment(p) &&
      typescript.isIdentifier(p.name) &&
      p.name.text === "uncached" &&
      p.initializer.kind === typescript.SyntaxKind.TrueKeyword,
  );
}

/**
 * Whether the receiver is named like a client (`this.client`, `mgr.client`, `kubeClient`): keeps a
 * `Map` keyed by kinds (`byKind.get(kinds.Pod)`) from being read as an API call.
 */
function looksLikeClient(receiver: ts.Expression): boolean {
  const name = typescript.isPropertyAccessExpression(receiver)
    ? receiver.name.text
    : typescript.isIdentifier(receiver)
      ? receiver.text
      : "";
  return /client/i.test(name);
}

/** The kind-naming client calls in the body of `cls`, in source order. */
export function findClientCalls(cls: ClassLocation, resolver: StaticResolver): ClientCall[] {
  const file = cls.node.getSourceFile();
  const calls: ClientCall[] = [];
  const visit = (node: ts.Node): void => {
    if (
      typescript.isCallExpression(node) &&
      typescript.isPropertyAccessExpression(node.expression) &&
      isClientVerb(node.expression.name.text) &&
      looksLikeClient(node.expression.expression) &&
      node.arguments.length >= 1
    ) {
      const verb = node.expression.name.text as ClientVerb;
      // Only a first argument that resolves to a kind makes this a client call.
      const kind = resolver.kind(node.arguments[0]!, cls.path);
      if (kind) {
        const { line, character } = file.getLineAndCharacterOfPosition(
          node.expression.name.getStart(file),
        );
        calls.push({
          verb,
          kind,
          uncached: passesUncached(node, verb),
          position: { file: cls.path, line: line + 1, column: character + 1 },
        });
      }
    }
    typescript.forEachChild(node, visit);
  };
  typescript.forEachChild(cls.node, visit);
  return calls;
}
