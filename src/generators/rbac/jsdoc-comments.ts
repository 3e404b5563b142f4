/**
 * Finds every JSDoc block (`/** ... *\/`) of a source file, attached to a declaration or not, so an
 * `@rbac` marker counts wherever it is written: on the reconciler class, at the top of the module,
 * next to a helper, or in a comment of its own.
 */
import type { ts } from "ts-morph";
import { typescript } from "../../source/typescript.js";

export interface JsDocBlock {
  /** Offset of `/**` in the file text. */
  start: number;
  /** Offset just past `*\/`. */
  end: number;
  text: string;
}

function isToken(node: ts.Node): boolean {
  return (
    node.kind < typescript.SyntaxKind.FirstNode ||
    node.kind === typescript.SyntaxKind.EndOfFileToken
  );
}

function isJsDocNode(node: ts.Node): boolean {
  return (
    node.kind >= typescript.SyntaxKind.FirstJSDocNode &&
    node.kind <= typescript.SyntaxKind.LastJSDocNode
  );
}

/**
 * All JSDoc blocks in source order. Every comment lies in the leading trivia of some token (the
 * end-of-file token at the latest), i.e. between the token's full start and its first character,
 * where there is nothing but whitespace and comments. Walking the syntax tree to those tokens
 * finds each comment once and never mistakes `/**` inside a string, template or regular
 * expression for one; subtrees with no `/**` in their text are skipped, which keeps the walk cheap.
 */
export function findJsDocBlocks(file: ts.SourceFile): JsDocBlock[] {
  const text = file.text;
  const candidates: number[] = [];
  for (let at = text.indexOf("/**"); at >= 0; at = text.indexOf("/**", at + 3)) candidates.push(at);
  if (candidates.length === 0) return [];

  /** Whether some candidate offset lies in [from, to). */
  const anyIn = (from: number, to: number): boolean => {
    let lo = 0;
    let hi = candidates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candidates[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < candidates.length && candidates[lo]! < to;
  };

  const blocks: JsDocBlock[] = [];
  /** Reads the comments of a trivia region (whitespace and comments only). */
  const scanTrivia = (from: number, to: number): void => {
    let i = from;
    while (i < to) {
      if (text.startsWith("//", i)) {
        const eol = text.indexOf("\n", i);
        i = eol < 0 || eol > to ? to : eol + 1;
      } else if (text.startsWith("/*", i)) {
        const close = text.indexOf("*/", i + 2);
        const end = close < 0 ? to : Math.min(close + 2, to);
        if (text.startsWith("/**", i) && !text.startsWith("/**/", i)) {
          blocks.push({ start: i, end, text: text.slice(i, end) });
        }
        i = end;
      } else {
        i++;
      }
    }
  };

  const visit = (node: ts.Node): void => {
    if (!anyIn(node.pos, node.end)) return;
    if (isToken(node)) {
      scanTrivia(node.pos, node.getStart(file));
      return;
    }
    for (const child of node.getChildren(file)) {
      // JSDoc nodes re-scan the comment itself; the comment is found as trivia of the next token.
      if (!isJsDocNode(child)) visit(child);
    }
  };
  visit(file);
  return blocks;
}
