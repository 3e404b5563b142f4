/**
 * Compiling and running CRD validation expressions as kube-apiserver does: parse and type-check
 * in the Kubernetes environment (an error is reported in cel-go's `ERROR: <input>:line:col:`
 * form with the source line and a caret), `matches` bound to RE2, evaluation metered.
 */

import type { Environment } from "@marcbachmann/cel-js";
import type { JSONSchemaProps } from "../schema/types.js";
import { installMeter, metered } from "./cost.js";
import { kubernetesEnvironment } from "./environment.js";
import { type CostEstimate, estimateAst } from "./estimate.js";
import { RE2_MATCHES } from "./library/regex.js";
import {
  declareSchemaType,
  type FormatConverters,
  type ObjectFields,
  toCelValue,
} from "./schema-types.js";
import type { SizeDecl } from "./size-estimate.js";

/**
 * A compiled expression: evaluate with the variables bound (`self`, `oldSelf`); `type` is its
 * checked result type (`bool`, `string`, ..., `dyn` when it depends on `self`).
 */
export type CelProgram = ((variables: Record<string, unknown>) => unknown) & { type: string };

/**
 * A rule kube-apiserver would not compile; `detail` is cel-go's rendering of the issue (with the
 * source line and a caret), `summary` the issue alone and `column` where it is (1-based).
 */
export class CelCompileError extends Error {
  override readonly name = "CelCompileError";
  constructor(
    readonly detail: string,
    readonly summary: string,
    readonly column: number,
  ) {
    super(detail);
  }
}

const libraries = kubernetesEnvironment();
installMeter(libraries);
const functionNames = new Set(libraries.getDefinitions().functions.map((f) => f.name));

const formatEnv = libraries.clone();
formatEnv.registerVariable("s", "string");
const parseDuration = formatEnv.parse("duration(s)");
const formats: FormatConverters = {
  duration: (s) => parseDuration({ s }),
};

interface AstNode {
  op: string;
  args: unknown;
}

const isNode = (v: unknown): v is AstNode =>
  typeof v === "object" && v !== null && typeof (v as AstNode).op === "string";

/** Points every `matches` call at the RE2 implementation (cel-js's own backtracks). */
function bindMatches(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) bindMatches(n);
    return;
  }
  if (!isNode(node)) return;
  const args = node.args;
  if ((node.op === "rcall" || node.op === "call") && Array.isArray(args) && args[0] === "matches") {
    args[0] = RE2_MATCHES;
  }
  if (Array.isArray(args)) bindMatches(args);
  else if (isNode(args)) bindMatches(args);
  else if (args && typeof args === "object") bindMatches(Object.values(args));
}

function position(expr: string, offset: number): { line: number; col: number; text: string } {
  const before = expr.slice(0, offset);
  const line = before.split("\n").length;
  const start = before.lastIndexOf("\n") + 1;
  const end = expr.indexOf("\n", start);
  return { line, col: offset - start + 1, text: expr.slice(start, end < 0 ? undefined : end) };
}

/** cel-go's message for what cel-js reports (only where the meaning is the same). */
function celGoMessage(e: Error & { code?: string }): string {
  const first = e.message.split("\n")[0] ?? e.message;
  if (e.code === "unknown_variable") {
    return `undeclared reference to '${first.replace(/^Unknown variable: /, "")}' (in container '')`;
  }
  if (e.code === "no_matching_overload") {
    const m = /for '(?:[\w.<>, ]+\.)?(\w+)\(/.exec(first);
    if (m && !functionNames.has(m[1] as string)) {
      return `undeclared reference to '${m[1] === RE2_MATCHES ? "matches" : m[1]}' (in container '')`;
    }
  }
  if (e.name === "ParseError") return `Syntax error: ${first}`;
  const field = /^No such key: (.+)$/.exec(first);
  if (field) return `undefined field '${field[1]}'`;
  const op = /^no such overload: (\S+) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (\S+)$/.exec(first);
  if (op) return `found no matching overload for '_${op[2]}_' applied to '(${op[1]}, ${op[3]})'`;
  return first.replaceAll(RE2_MATCHES, "matches");
}

function compileError(
  expr: string,
  e: Error & { range?: { start: number } },
  location?: number,
): CelCompileError {
  const message = celGoMessage(e);
  let offset = e.range?.start ?? 0;
  // cel-go points a call's issues at its opening parenthesis, a field's at the dot before it
  // and an operator's at the operator.
  const call = /^undeclared reference to '(\w+)'/.exec(message)?.[1];
  const field = /^undefined field '(.+)'$/.exec(message)?.[1];
  const op = /^found no matching overload for '_(\S+)_' applied to/.exec(message)?.[1];
  if (call) {
    const at = expr.indexOf(`${call}(`, offset);
    if (at >= 0) offset = at + call.length;
  } else if (field) {
    const dot = expr.lastIndexOf(".", offset);
    if (dot >= 0) offset = dot;
  } else if (op) {
    const at = expr.indexOf(op, offset);
    if (at >= 0) offset = at;
  }
  if (location !== undefined && location >= 0) offset = location;
  const { line, col, text } = position(expr, offset);
  return new CelCompileError(
    `ERROR: <input>:${line}:${col}: ${message}\n | ${text}\n | ${".".repeat(col - 1)}^`,
    message,
    col,
  );
}

const CACHE_LIMIT = 4096;

/** A typed scope's object types: the variables' types and each object type's fields. */
interface Typing {
  variables: Record<string, string>;
  objects: ObjectFields;
}

interface SelectNode {
  op: string;
  args: unknown;
  start?: number;
  end?: number;
}

/**
 * The first `has()` of a field its object type does not declare: cel-js does not check a
 * presence test's field, cel-go does (`undefined field`). Only selections from a variable
 * through declared object fields are resolved; anything else is left to evaluation.
 */
function undefinedPresenceTest(
  node: unknown,
  typing: Typing,
): { call: SelectNode; field: string } | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = undefinedPresenceTest(n, typing);
      if (found) return found;
    }
    return undefined;
  }
  if (!isNode(node)) return undefined;
  const args = node.args;
  if (node.op === "call" && Array.isArray(args) && args[0] === "has") {
    const sel = (args[1] as unknown[])?.[0] as SelectNode | undefined;
    if (sel?.op === ".") {
      const [operand, field] = sel.args as [SelectNode, string];
      const t = selectedType(operand, typing);
      const fields = t === undefined ? undefined : typing.objects.get(t);
      if (fields && !Object.hasOwn(fields, field)) return { call: node, field };
    }
  }
  if (Array.isArray(args) || isNode(args)) return undefinedPresenceTest(args, typing);
  if (args && typeof args === "object") return undefinedPresenceTest(Object.values(args), typing);
  return undefined;
}

/** The declared type a chain of field selections from a variable reaches, if it is one. */
function selectedType(n: SelectNode, typing: Typing): string | undefined {
  if (n.op === "id") return typing.variables[n.args as string];
  if (n.op !== ".") return undefined;
  const [operand, field] = n.args as [SelectNode, string];
  const t = selectedType(operand, typing);
  return t === undefined ? undefined : typing.objects.get(t)?.[field];
}

function compileIn(env: Environment, expr: string, typing?: Typing): CelProgram | CelCompileError {
  try {
    const parsed = env.parse(expr) as unknown as ((v: Record<string, unknown>) => unknown) & {
      ast: unknown;
      check(): { valid: boolean; type?: string; error?: Error };
    };
    bindMatches(parsed.ast);
    const checked = parsed.check();
    const undefinedField = checked.valid && typing && undefinedPresenceTest(parsed.ast, typing);
    if (undefinedField) {
      // cel-go locates the presence test the has() macro expands to at the call's parenthesis.
      const paren = expr.indexOf("(", undefinedField.call.start ?? 0);
      return compileError(expr, new Error(`No such key: ${undefinedField.field}`), paren);
    }
    return checked.valid
      ? Object.assign(parsed, { type: checked.type ?? "dyn" })
      : compileError(expr, checked.error as Error);
  } catch (e) {
    return compileError(expr, e instanceof Error ? e : new Error(String(e)));
  }
}

/** An environment and the programs compiled in it (bounded: expressions come from clients). */
interface CompileScope {
  env: Environment;
  programs: Map<string, CelProgram | CelCompileError>;
  typing?: Typing;
}

function compiled(scope: CompileScope, expr: string): CelProgram | CelCompileError {
  let p = scope.programs.get(expr);
  if (!p) {
    p = compileIn(scope.env, expr, scope.typing);
    if (scope.programs.size >= CACHE_LIMIT) {
      scope.programs.delete(scope.programs.keys().next().value as string);
    }
    scope.programs.set(expr, p);
  }
  return p;
}

// Per set of dyn variables (admission matchConditions: object, oldObject, request, ...).
const variableScopes = new Map<string, CompileScope>();

/**
 * The compiled program, or the compile error, of an expression over the given dyn variables
 * (cached), e.g. an admission webhook's matchConditions over `object`, `oldObject`, `request`.
 */
export function compileCelWith(
  expr: string,
  variables: readonly string[],
): CelProgram | CelCompileError {
  const key = variables.join(",");
  let scope = variableScopes.get(key);
  if (!scope) {
    const env = libraries.clone();
    for (const v of variables) env.registerVariable(v, "dyn");
    scope = { env, programs: new Map() };
    variableScopes.set(key, scope);
  }
  return compiled(scope, expr);
}

/**
 * The compiled program, or the compile error, of an expression with dyn `self` and `oldSelf`
 * (cached): how the generator checks a marker's rule before the schema exists.
 */
export function compileCel(expr: string): CelProgram | CelCompileError {
  return compileCelWith(expr, ["self", "oldSelf"]);
}

/** Where a rule sits: the schema node it is declared on and whether that is the resource root. */
export interface RuleScope {
  schema: JSONSchemaProps;
  root: boolean;
}

// Per schema node object (a stored CRD's schema is never mutated): its typed environments, by
// root or not and optional oldSelf or not.
const typedScopes = new WeakMap<JSONSchemaProps, Map<string, CompileScope>>();

/**
 * A CRD rule (or messageExpression) compiled as kube compiles it: `self` typed by the schema
 * node the rule is on, so an undefined field or mismatched operands fail here as at CRD
 * creation. `optionalOldSelf` rules see `oldSelf` as optional<dyn> (cel-js does not convert
 * plain objects inside an optional to an object type); a plain oldSelf has self's type.
 */
export function compileRule(
  expr: string,
  scope: RuleScope,
  optionalOldSelf = false,
): CelProgram | CelCompileError {
  let byKind = typedScopes.get(scope.schema);
  if (!byKind) {
    byKind = new Map();
    typedScopes.set(scope.schema, byKind);
  }
  const key = `${scope.root ? "root" : "node"}${optionalOldSelf ? "?" : ""}`;
  let typed = byKind.get(key);
  if (!typed) {
    const env = libraries.clone();
    const objects: ObjectFields = new Map();
    const selfType = declareSchemaType(env, scope.schema, "Object", scope.root, objects);
    const oldSelfType = optionalOldSelf ? "optional<dyn>" : selfType;
    env.registerVariable("self", selfType);
    env.registerVariable("oldSelf", oldSelfType);
    typed = {
      env,
      programs: new Map(),
      typing: { variables: { self: selfType, oldSelf: oldSelfType }, objects },
    };
    byKind.set(key, typed);
  }
  return compiled(typed, expr);
}

/** A JSON value shaped for a rule compiled against `schema` (see schema-types.ts). */
export function celValue(value: unknown, schema: JSONSchemaProps | undefined): unknown {
  return toCelValue(value, schema, formats);
}

/** cel-go's text for an evaluation error (`no such key: x`, `division by zero`, ...). */
export function celEvalMessage(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const first = (e.message.split("\n")[0] ?? e.message).replaceAll(RE2_MATCHES, "matches");
  const code = (e as { code?: string }).code;
  if (code === "no_such_key") return first.replace(/^No such key: /, "no such key: ");
  if (code === "no_matching_overload")
    return `no such overload: ${first.replace(/^found no matching overload for /, "")}`;
  return first;
}

/** Evaluates under a cost limit; throws CelCostLimitError past it, or the evaluation error. */
export function evaluateCel(
  program: CelProgram,
  variables: Record<string, unknown>,
  limit: number,
): { value: unknown; cost: number } {
  return metered(limit, () => program(variables));
}

/**
 * cel-go's static cost estimate of a compiled expression, `self` sized by `root` (see
 * size-estimate.ts); `exact` false when this port cannot reproduce the cluster's estimate.
 */
export function estimateCost(program: CelProgram, root: SizeDecl | undefined): CostEstimate {
  return estimateAst((program as unknown as { ast: unknown }).ast, root, RE2_MATCHES);
}

// Per typed schema set: an admission policy's environments (see compileCelTyped).
const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 0;
const typedVariableScopes = new Map<string, CompileScope>();

/**
 * A variable typed by a schema: `resource` when it is a whole object (apiVersion, kind,
 * metadata), `declared` for a type kube declares by hand, whose field names are not escaped.
 */
export interface TypedVariable {
  schema: JSONSchemaProps;
  resource: boolean;
  declared?: boolean;
}

/**
 * The compiled program, or the compile error, of an expression with some variables typed by
 * schemas and the others dyn: an admission policy's `request` and `namespaceObject` as kube
 * declares them, or `object`, `oldObject` and `params` typed by resource schemas as kube's
 * policy type checker declares them (cached per schema set).
 */
export function compileCelTyped(
  expr: string,
  typed: Readonly<Record<string, TypedVariable>>,
  dynVariables: readonly string[],
): CelProgram | CelCompileError {
  const id = (s: object) => {
    let n = schemaIds.get(s);
    if (n === undefined) {
      n = nextSchemaId++;
      schemaIds.set(s, n);
    }
    return n;
  };
  const key = `${Object.entries(typed)
    .map(([v, t]) => `${v}=${id(t.schema)}${t.resource ? "r" : ""}${t.declared ? "d" : ""}`)
    .join(",")};${dynVariables.join(",")}`;
  let scope = typedVariableScopes.get(key);
  if (!scope) {
    const env = libraries.clone();
    const objects: ObjectFields = new Map();
    const typeNames = new Map<JSONSchemaProps, string>();
    const variables: Record<string, string> = {};
    for (const [name, t] of Object.entries(typed)) {
      let typeName = typeNames.get(t.schema);
      if (typeName === undefined) {
        typeName = declareSchemaType(
          env,
          t.schema,
          `Type${typeNames.size}`,
          t.resource,
          objects,
          !t.declared,
        );
        typeNames.set(t.schema, typeName);
      }
      env.registerVariable(name, typeName);
      variables[name] = typeName;
    }
    for (const v of dynVariables) env.registerVariable(v, "dyn");
    scope = { env, programs: new Map(), typing: { variables, objects } };
    // Bounded as the other caches: schemas come from clients' CRDs.
    if (typedVariableScopes.size >= 256)
      typedVariableScopes.delete(typedVariableScopes.keys().next().value as string);
    typedVariableScopes.set(key, scope);
  }
  return compiled(scope, expr);
}
