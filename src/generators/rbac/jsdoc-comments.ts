/**
 * Finds every JSDoc block (`/** ... *\/`) of a source file, attached to a declaration or not, so an
 * `@rbac` marker counts wherever it is written: on the reconciler class, at the top of the module,
 * next to a helper, or in a comment of its own.
 */
import { ts } from "ts-morph";

export interface JsDocBlock {
  /** Offset of `/**` in the file text. */
  start: number;
  /** Offset just past `*\/`. */
  end: number;
  text: string;
}

/**
 * All JSDoc blocks in source order. Every comment is trivia of some token (the end-of-file token at
 * the latest), so walking the tokens of the syntax tree visits each comment, and never mistakes
 * `/**` inside a string, template or regular expression for a comment.
 */
export function findJsDocBlocks(file: ts.SourceFile): JsDocBlock[] {
  const text = file.text;
  const seen = new Set<number>();
  const blocks: JsDocBlock[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind < ts.SyntaxKind.FirstNode || node.kind === ts.SyntaxKind.EndOfFileToken) {
      // A comment on the line of the previous token is that token's trailing trivia; one after a
      // line break is the next token's leading trivia. Between them they cover every comment.
      const ranges = [
        ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
        ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
      ];
      for (const range of ranges) {
        if (seen.has(range.pos)) continue;
        seen.add(range.pos);
        const comment = text.slice(range.pos, range.end);
        if (range.kind === ts.SyntaxKind.MultiLineCommentTrivia && /^\/\*\*(?!\/)/.test(comment)) {
          blocks.push({ start: range.pos, end: range.end, text: comment });
        }
      }
      return;
    }
    for (const child of node.getChildren(file)) {
      // JSDoc nodes re-scan the comment itself; its tokens are not code tokens.
      if (child.kind >= ts.SyntaxKind.FirstJSDocNode && child.kind <= ts.SyntaxKind.LastJSDocNode) {
        continue;
      }
      visit(child);
    }
  };
  visit(file);
  return blocks.sort((a, b) => a.start - b.start);
}
