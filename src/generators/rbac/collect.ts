/**
 * Collects the `@rbac` markers of the scanned sources: every JSDoc block of every file is split
 * into tags by the shared JSDoc reader, the `@rbac` tags (and their controller-gen spelling
 * `@kubebuilder:rbac:...`) are checked by the shared marker parser, and each becomes an `RbacRule`
 * or `path:line:col` diagnostics. Other tags are left to the generators that own them.
 */

import type { ts } from "ts-morph";
import {
  type GoStyleMarkerRule,
  goStyleMarkerWarnings,
  LineMap,
  parseJSDoc,
  parseMarkers,
} from "../../markers/index.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import type { ProjectSources } from "../../source/project-sources.js";
import { typescript } from "../../source/typescript.js";
import { markerRegistry } from "../markers.js";
import { findJsDocBlocks } from "./jsdoc-comments.js";
import type { LocatedRbacRule } from "./rule.js";
import { ruleFromArgs } from "./validate.js";

export interface CollectedRules {
  rules: LocatedRbacRule[];
  diagnostics: Diagnostic[];
}

const MARKER_TEXT = /@(?:kubebuilder:)?rbac\b/;

function isRbacTag(name: string): boolean {
  return name === "rbac" || name === "kubebuilder:rbac" || name.startsWith("kubebuilder:rbac:");
}

/** Start offset of each class's JSDoc blocks, mapped to the class name. */
function classDocs(file: ts.SourceFile): Map<number, string> {
  const owners = new Map<number, string>();
  const visit = (node: ts.Node): void => {
    if ((typescript.isClassDeclaration(node) || typescript.isClassExpression(node)) && node.name) {
      for (const doc of typescript.getJSDocCommentsAndTags(node)) {
        if (typescript.isJSDoc(doc)) owners.set(doc.pos, node.name.text);
      }
    }
    typescript.forEachChild(node, visit);
  };
  visit(file);
  return owners;
}

/**
 * controller-gen markers written as `//` line comments, as they stand in Go code: opgen reads
 * only JSDoc, so such a line would silently grant nothing.
 */
const GO_STYLE: GoStyleMarkerRule = {
  names: "rbac",
  literal: "+kubebuilder:rbac:",
  message: (_, args) =>
    `a line comment is not a marker and grants nothing; write it in a JSDoc block: /** @rbac ${args.trim()} */`,
};

export function collectRbacRules(
  sources: ProjectSources,
  paths: readonly string[],
): CollectedRules {
  const rules: LocatedRbacRule[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const path of paths) {
    const text = sources.text(path);
    if (text) diagnostics.push(...goStyleMarkerWarnings(path, text, GO_STYLE));
    // Most files hold no marker: skip them without parsing.
    if (!text || !MARKER_TEXT.test(text)) continue;
    const file = sources.syntaxTree(path)!;
    const lines = new LineMap(path, text);
    const owners = classDocs(file);
    for (const block of findJsDocBlocks(file)) {
      if (!MARKER_TEXT.test(block.text)) continue;
      const tags = parseJSDoc(text, block.start, block.end, lines).tags.filter((tag) =>
        isRbacTag(tag.name),
      );
      const parsed = parseMarkers(tags, "controller", markerRegistry());
      diagnostics.push(...parsed.diagnostics);
      for (const marker of parsed.markers) {
        const result = ruleFromArgs(marker.args);
        if (!result.ok) {
          for (const message of result.errors) {
            diagnostics.push({
              severity: "error",
              file: marker.pos.file,
              line: marker.pos.line,
              column: marker.pos.column,
              message: `@rbac: ${message}`,
            });
          }
          continue;
        }
        const className = owners.get(block.start);
        rules.push({
          rule: result.rule,
          position: { ...marker.pos },
          source: marker.source,
          ...(className ? { className } : {}),
        });
      }
    }
  }
  return { rules, diagnostics };
}
