/**
 * The expressions kube-apiserver compiles when a CRD is created, compiled here with the same
 * rules, after the walk: `@validation Pattern` with Go's RE2 syntax, and `XValidation` rules and
 * message expressions with the CEL library envtest uses. Once the schemas exist, the rules'
 * estimated costs are held to kube's limits too (costProblems). The engines are imported only
 * when a project has such markers, and expressions (and schemas) that passed before are
 * remembered in a small cache (like the V8 code cache of compile-cache.ts, in the temporary
 * folder, keyed by the engines' versions; OPGEN_NO_COMPILE_CACHE=1 turns it off), so a run whose
 * expressions all passed before does not load the engines at all (~40 ms). Failures are never
 * cached.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { ParsedMarker } from "../../markers/types.js";
import { compileCacheDir } from "../../source/compile-cache.js";
import type { Diagnostic } from "../../source/diagnostics.js";

/**
 * Bumped when the checks refuse more than before (2: Kubernetes CEL environment, type checks;
 * 3: estimated rule costs; 4: kube's typing of preserve-unknown-fields and embedded resources,
 * costs of library functions, computed lists, cel.bind and optional access).
 */
const CHECKS_REVISION = 4;

/** Where compiled-before expressions are remembered, or undefined when caching is off or impossible. */
function cacheFile(): string | undefined {
  if (process.env.OPGEN_NO_COMPILE_CACHE) return undefined;
  try {
    const require = createRequire(import.meta.url);
    // Not every package exports its package.json: walk up from its entry point.
    const version = (pkg: string) => {
      let dir = dirname(require.resolve(pkg));
      for (;;) {
        try {
          const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
            name?: string;
            version?: string;
          };
          if (meta.name === pkg) return meta.version;
        } catch {
          // No package.json here; keep walking up.
        }
        const up = dirname(dir);
        if (up === dir) throw new Error(`no package.json for ${pkg}`);
        dir = up;
      }
    };
    // The checks' own revision is part of the key: a change in what they refuse (the Kubernetes
    // CEL environment, type checking) must not reuse what an older check let through.
    const key = createHash("sha256")
      .update(
        `re2js@${version("re2js")} cel-js@${version("@marcbachmann/cel-js")} checks@${CHECKS_REVISION}`,
      )
      .digest("hex")
      .slice(0, 16);
    // The per-user directory the TypeScript compile cache trusts (0700, owned by us), never a
    // shared one where another user could plant "already compiled" entries.
    const dir = compileCacheDir();
    return dir ? join(dir, `expressions-${key}.json`) : undefined;
  } catch {
    return undefined;
  }
}

function readCache(file: string | undefined): Set<string> {
  if (!file) return new Set();
  try {
    return new Set(JSON.parse(readFileSync(file, "utf8")) as string[]);
  } catch {
    return new Set();
  }
}

function writeCache(file: string | undefined, keys: Set<string>): void {
  if (!file) return;
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify([...keys].sort()));
    renameSync(tmp, file);
  } catch {
    // No cache this time; the next run compiles again.
  }
}

const keyOf = (kind: string, text: string) =>
  createHash("sha256").update(`${kind}\0${text}`).digest("base64url").slice(0, 22);

/** Markers whose expressions need compiling, collected while markers are applied. */
export function hasExpressions(m: ParsedMarker): boolean {
  return /^validation (items:)?(Pattern|XValidation)$/.test(m.def.name);
}

export async function expressionProblems(markers: readonly ParsedMarker[]): Promise<Diagnostic[]> {
  if (markers.length === 0) return [];
  const file = cacheFile();
  const known = readCache(file);
  const expressions = (m: ParsedMarker): [string, string][] =>
    m.def.name.endsWith("Pattern")
      ? [["pattern", String(m.args[""])]]
      : (["rule", "messageExpression"] as const)
          .filter((k) => typeof m.args[k] === "string")
          .map((k) => ["cel", m.args[k] as string]);
  const unknown = markers.filter((m) => expressions(m).some(([k, t]) => !known.has(keyOf(k, t))));
  if (unknown.length === 0) return [];
  const problems = await compileAll(unknown);
  const failed = new Set(problems.map((p) => p.marker));
  for (const m of unknown) {
    if (!failed.has(m)) for (const [k, t] of expressions(m)) known.add(keyOf(k, t));
  }
  writeCache(file, known);
  return problems.map((p) => p.diagnostic);
}

async function compileAll(
  markers: readonly ParsedMarker[],
): Promise<{ marker: ParsedMarker; diagnostic: Diagnostic }[]> {
  const out: { marker: ParsedMarker; diagnostic: Diagnostic }[] = [];
  const at = (m: ParsedMarker, message: string) => ({
    marker: m,
    diagnostic: { severity: "error", ...m.pos, message } as Diagnostic,
  });
  const label = (m: ParsedMarker) => `@${m.def.name}`;
  const patterns = markers.filter((m) => m.def.name.endsWith("Pattern"));
  if (patterns.length > 0) {
    const { goRegexpError } = await import("@opgen/apimachinery/regex");
    for (const m of patterns) {
      const error = goRegexpError(String(m.args[""]));
      if (error) {
        out.push(
          at(
            m,
            `${label(m)}: ${error} (kube-apiserver compiles patterns with Go's RE2 syntax: no lookarounds or backreferences)`,
          ),
        );
      }
    }
  }
  const rules = markers.filter((m) => m.def.name.endsWith("XValidation"));
  if (rules.length > 0) {
    const { compileCel } = await import("@opgen/apimachinery/cel");
    for (const m of rules) {
      for (const key of ["rule", "messageExpression"]) {
        const expr = m.args[key];
        if (typeof expr !== "string") continue;
        const compiled = compileCel(expr);
        if (compiled instanceof Error) {
          out.push(
            at(
              m,
              `${label(m)}: ${key} ${JSON.stringify(expr)} does not compile: ${compiled.summary} (column ${compiled.column})`,
            ),
          );
          break;
        }
      }
    }
  }
  return out;
}

/** What a cost check needs of one kind version: its schema, and where to report the kind. */
export interface CostCheckedVersion {
  kind: string;
  version: string;
  schema: JSONSchemaProps;
  pos: { file: string; line: number; column: number };
}

const hasRules = (s: unknown): boolean =>
  JSON.stringify(s ?? null).includes('"x-kubernetes-validations"');

/** `openAPIV3Schema.properties[spec].items.x-kubernetes-validations[0].rule` as `spec[*]`. */
function dataPath(field: string): string {
  const path = field
    .replace(/^openAPIV3Schema/, "")
    .replace(/\.x-kubernetes-validations\[\d+\]\.(rule|messageExpression)$/, "")
    .replace(/\.properties\[([^\]]*)\]/g, ".$1")
    .replace(/\.(items|additionalProperties)/g, "[*]")
    .replace(/^\./, "");
  return path === "" ? "the root" : path;
}

/**
 * The rules kube-apiserver would refuse for their estimated cost (per rule and messageExpression,
 * times how often they can run per request, and all of a CRD's together), reported at their
 * `@validation XValidation` marker, or at the kind for rules other markers generate.
 */
export async function costProblems(
  versions: readonly CostCheckedVersion[],
  markers: readonly ParsedMarker[],
): Promise<Diagnostic[]> {
  const withRules = versions.filter((v) => hasRules(v.schema));
  if (withRules.length === 0) return [];
  const file = cacheFile();
  const known = readCache(file);
  const unknown = withRules.filter((v) => !known.has(keyOf("cost", JSON.stringify(v.schema))));
  if (unknown.length === 0) return [];
  const { crdRuleCostErrors } = await import("@opgen/apimachinery/cel");
  const rules = markers.filter((m) => m.def.name.endsWith("XValidation"));
  const out: Diagnostic[] = [];
  for (const v of unknown) {
    const errs = crdRuleCostErrors(v.schema, "openAPIV3Schema");
    if (errs.length === 0) {
      known.add(keyOf("cost", JSON.stringify(v.schema)));
      continue;
    }
    const total = errs.find((e) => e.field === "openAPIV3Schema");
    // A rule over its own limit is reported once: its share of the total goes without saying.
    const overOwnLimit = new Set(
      errs.filter((e) => e.detail.startsWith("estimated")).map((e) => e.field),
    );
    for (const e of errs) {
      if (!e.rule) continue;
      if (e.detail.startsWith("contributed") && overOwnLimit.has(e.field)) continue;
      const rule = e.rule.schema["x-kubernetes-validations"]?.[e.rule.index];
      const expression = e.rule.expression;
      const text = rule?.[expression] ?? "";
      const where = `${v.kind} ${v.version} ${dataPath(e.field)}`;
      const detail = (
        e.detail.startsWith("contributed") && total ? total.detail : e.detail
      ).replace(/ \(try simplifying the rule.*\)$/, "");
      const what = e.detail.startsWith("contributed")
        ? `is part of an estimated cost total kube-apiserver refuses for ${v.kind} ${v.version}`
        : `is refused by kube-apiserver for its cost at ${where}`;
      const hint =
        "(bound the lists, maps and strings it reads with @validation MaxItems, MaxProperties and MaxLength, or simplify the rule)";
      const owners = rules.filter((m) => m.args[expression] === text);
      const message = (label: string) =>
        `${label}: ${expression} ${JSON.stringify(text)} ${what}: ${detail} ${hint}`;
      if (owners.length === 0) {
        out.push({ severity: "error", ...v.pos, message: message(`kind ${v.kind} (${where})`) });
      }
      for (const m of owners) {
        out.push({ severity: "error", ...m.pos, message: message(`@${m.def.name}`) });
      }
    }
  }
  writeCache(file, known);
  return out;
}
