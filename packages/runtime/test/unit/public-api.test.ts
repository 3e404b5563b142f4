/**
 * The runtime's public surface, entry point by entry point: every exported name and what it is.
 * A name added to or dropped from an export shows in the snapshot's diff in review; run vitest with
 * `-u` to accept an intended change.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ENTRIES: Record<string, string> = {
  "@opgen/runtime": "../../src/index.ts",
  "@opgen/runtime/cache": "../../src/cache/index.ts",
  "@opgen/runtime/workqueue": "../../src/workqueue/index.ts",
};

function kindOf(checker: ts.TypeChecker, sym: ts.Symbol): string {
  const s = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
  const f = s.flags;
  if (f & ts.SymbolFlags.Class) return "class";
  if (f & ts.SymbolFlags.Function) return "function";
  if (f & ts.SymbolFlags.Enum) return "enum";
  if (f & ts.SymbolFlags.Variable) return "const";
  if (f & ts.SymbolFlags.Interface) return "interface";
  if (f & ts.SymbolFlags.TypeAlias) return "type";
  return "other";
}

function surface(): string {
  const files = Object.fromEntries(
    Object.entries(ENTRIES).map(([name, rel]) => [
      name,
      fileURLToPath(new URL(rel, import.meta.url)),
    ]),
  );
  const program = ts.createProgram(Object.values(files), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const lines: string[] = [];
  for (const [entry, file] of Object.entries(files)) {
    const sf = program.getSourceFile(file)!;
    const mod = checker.getSymbolAtLocation(sf)!;
    const names = checker
      .getExportsOfModule(mod)
      .map((sym) => `${entry} ${sym.getName()} ${kindOf(checker, sym)}`)
      .sort();
    lines.push(...names);
  }
  return `${lines.join("\n")}\n`;
}

describe("public API", () => {
  it("exports exactly the snapshot's names from each entry point", async () => {
    await expect(surface()).toMatchFileSnapshot("./__snapshots__/public-api.txt");
  }, 60_000);

  it("keeps the transport out of every entry point", () => {
    const text = surface();
    expect(text).not.toMatch(/ RestClient /);
    expect(text).toMatch(/^@opgen\/runtime createManager function$/m);
    expect(text).toMatch(/^@opgen\/runtime\/cache SharedInformer class$/m);
  }, 60_000);
});
