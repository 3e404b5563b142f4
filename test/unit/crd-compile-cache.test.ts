import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { requireWithCodeCache } from "../../src/source/compile-cache.js";

const dir = mkdtempSync(join(tmpdir(), "opgen-cc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("requireWithCodeCache", () => {
  it("loads a CommonJS file once, shared with require, and schedules its code cache", () => {
    const file = join(dir, "mod.cjs");
    writeFileSync(
      file,
      "exports.answer = 42;\nexports.dir = __dirname;\nexports.req = typeof require;\n",
    );
    const before = process.listenerCount("exit");
    const loaded = requireWithCodeCache(file) as { answer: number; dir: string; req: string };
    expect(loaded).toEqual({ answer: 42, dir, req: "function" });
    // Later requires of the same file (ts-morph's, for TypeScript) get the same instance.
    expect(createRequire(file)(file)).toBe(loaded);
    expect(requireWithCodeCache(file)).toBe(loaded);
    // On Node 20 the cache is written at exit; Node 22's module.enableCompileCache does it itself.
    const ownCache = !process.env.OPGEN_NO_COMPILE_CACHE && !("enableCompileCache" in Module);
    expect(process.listenerCount("exit")).toBe(ownCache ? before + 1 : before);
  });

  it("falls back to vm.Script with its own code cache where Node has none (20, 22.0)", () => {
    const file = join(dir, "vm.cjs");
    writeFileSync(file, "exports.vm = __filename;\n");
    const internals = Module as unknown as {
      _cache: Record<string, unknown>;
      enableCompileCache?: (dir?: string) => unknown;
    };
    const own = Object.getOwnPropertyDescriptor(internals, "enableCompileCache");
    delete internals.enableCompileCache;
    vi.stubEnv("OPGEN_NO_COMPILE_CACHE", "");
    try {
      const before = process.listeners("exit");
      expect(requireWithCodeCache(file)).toEqual({ vm: file });
      const added = process.listeners("exit").filter((l) => !before.includes(l));
      expect(added).toHaveLength(1);
      // Run the exit hook now: it writes the cache, which the next process (here: a fresh load) uses.
      process.removeListener("exit", added[0] as () => void);
      (added[0] as (code: number) => void)(0);
      delete internals._cache[file];
      const again = process.listenerCount("exit");
      expect(requireWithCodeCache(file)).toEqual({ vm: file });
      expect(process.listenerCount("exit")).toBe(again);
    } finally {
      vi.unstubAllEnvs();
      delete internals._cache[file];
      if (own) Object.defineProperty(internals, "enableCompileCache", own);
    }
  });

  it("OPGEN_NO_COMPILE_CACHE=1 turns the cache off, Node's own (22.1+) included", () => {
    const file = join(dir, "off.cjs");
    writeFileSync(file, "exports.off = true;\n");
    const internals = Module as unknown as { enableCompileCache?: (dir?: string) => unknown };
    const own = Object.getOwnPropertyDescriptor(internals, "enableCompileCache");
    const enable = vi.fn();
    internals.enableCompileCache = enable;
    vi.stubEnv("OPGEN_NO_COMPILE_CACHE", "1");
    const before = process.listenerCount("exit");
    try {
      expect(requireWithCodeCache(file)).toEqual({ off: true });
      expect(enable).not.toHaveBeenCalled();
      expect(process.listenerCount("exit")).toBe(before);
    } finally {
      vi.unstubAllEnvs();
      if (own) Object.defineProperty(internals, "enableCompileCache", own);
      else delete internals.enableCompileCache;
    }
  });

  it("does not keep a module whose code throws", () => {
    const file = join(dir, "bad.cjs");
    writeFileSync(file, "throw new Error('boom');\n");
    expect(() => requireWithCodeCache(file)).toThrow("boom");
    expect(() => requireWithCodeCache(file)).toThrow("boom");
  });
});
