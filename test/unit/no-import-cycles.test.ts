/**
 * No module of the CLI or the packages imports itself through others (type-only imports count:
 * a cycle in types is still a layering mistake), so each layer can be read and tested alone.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

const ROOTS = ["src", "packages/apimachinery/src", "packages/runtime/src", "packages/envtest/src"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [resolve(path)] : [];
  });
}

/** Relative imports and re-exports of each file, resolved to the `.ts` files they name. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const deps: string[] = [];
    for (const m of text.matchAll(/^(?:import|export)\s[^"']*?from\s+["'](\.[^"']+)["']/gm)) {
      const target = resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts"));
      if (known.has(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

function findCycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (state.get(dep) === "open") cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe("imports", () => {
  it("finds a cycle when there is one (the check itself works)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(findCycles(graph)).toEqual([["a", "b", "c", "a"]]);
  });

  it("form no cycle in src/ or packages/*/src", () => {
    const files = ROOTS.flatMap((r) => sources(join(REPO_ROOT, r)));
    expect(files.length).toBeGreaterThan(100);
    const cycles = findCycles(importGraph(files)).map((c) =>
      c.map((f) => relative(REPO_ROOT, f)).join(" -> "),
    );
    expect(cycles).toEqual([]);
  });
});
