/**
 * The group, version and package defaults of an API folder, read from its `groupversion.ts`
 * (`@groupName`, `@versionName` and `@optional` in the JSDoc of the exported `GroupVersion`, or
 * its `{ group, version }` literal; the version defaults to the folder's name), with where each is
 * declared, so a bad group or version is reported at its declaration rather than at every kind.
 */
import { basename } from "node:path";
import type { ts } from "ts-morph";
import type { SourcePos } from "../../markers/types.js";
import type { ProjectSources, SourceFileInfo } from "../../source/project-sources.js";
import type { SchemaWalker } from "./walker.js";

export interface PackageInfo {
  group?: string;
  version: string;
  optional: boolean;
  /** Where the group is declared (`@groupName` or `group:`). */
  groupPos?: SourcePos;
  /** Where the version is declared; the GroupVersion declaration when it is the folder's name. */
  versionPos: SourcePos;
  /** The GroupVersion declaration, or the file's start when it has none. */
  declPos: SourcePos;
  /** The version is the folder's name (no `@versionName` nor `version:`). */
  versionFromFolder: boolean;
}

/** The package facts of `file` (a groupversion.ts in folder `dir`). */
export function readPackageInfo(
  sources: ProjectSources,
  walker: SchemaWalker,
  file: SourceFileInfo,
  dir: string,
): PackageInfo {
  const t = sources.ts;
  const start = file.lines.position(0);
  const info: PackageInfo = {
    version: basename(dir),
    optional: false,
    versionPos: start,
    declPos: start,
    versionFromFolder: true,
  };
  for (const stmt of file.sf.statements) {
    if (!t.isVariableStatement(stmt)) continue;
    const decl = stmt.declarationList.declarations.find(
      (d) => t.isIdentifier(d.name) && d.name.text === "GroupVersion",
    );
    if (!decl) continue;
    info.declPos = sources.position(file, decl.name);
    info.versionPos = info.declPos;
    const literal = objectLiteral(t, decl.initializer);
    if (literal.group) {
      info.group = literal.group.text;
      info.groupPos = sources.position(file, literal.group);
    }
    if (literal.version) {
      info.version = literal.version.text;
      info.versionPos = sources.position(file, literal.version);
      info.versionFromFolder = false;
    }
    for (const m of walker.markersOf(file, stmt, "package")) {
      if (m.def.name === "groupName") {
        info.group = (m.args[""] as string | undefined) ?? "";
        info.groupPos = m.pos;
      } else if (m.def.name === "versionName") {
        info.version = m.args[""] as string;
        info.versionPos = m.pos;
        info.versionFromFolder = false;
      } else if (m.def.name === "optional") info.optional = true;
    }
  }
  return info;
}

function objectLiteral(
  t: typeof ts,
  init: ts.Expression | undefined,
): { group?: ts.StringLiteral; version?: ts.StringLiteral } {
  let e = init;
  while (e && (t.isAsExpression(e) || t.isSatisfiesExpression(e) || t.isParenthesizedExpression(e)))
    e = e.expression;
  const out: { group?: ts.StringLiteral; version?: ts.StringLiteral } = {};
  if (!e || !t.isObjectLiteralExpression(e)) return out;
  for (const p of e.properties) {
    if (t.isPropertyAssignment(p) && t.isIdentifier(p.name) && t.isStringLiteral(p.initializer)) {
      if (p.name.text === "group") out.group = p.initializer;
      if (p.name.text === "version") out.version = p.initializer;
    }
  }
  return out;
}
