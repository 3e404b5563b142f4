/**
 * Loads a large CommonJS file (TypeScript's 9 MB compiler) with a V8 code cache, so that every
 * `opgen manifests` after the first skips most of its compilation (~0.2 s of a ~1 s run). Node 22
 * has this built in (`module.enableCompileCache`), which is used when present; on Node 20 the
 * file is compiled through `vm.Script` with `cachedData`, the technique of the v8-compile-cache
 * package. The module is registered in `require.cache`, so later `require`s of the same file (by
 * ts-morph, for instance) get this instance. V8 checks the cache against the source and its own
 * version and flags, and a rejected or missing cache is rebuilt; any I/O problem just means no
 * cache. OPGEN_NO_COMPILE_CACHE=1 turns it off.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

interface NodeModuleInternals {
  _cache: Record<string, NodeJS.Module>;
  _nodeModulePaths(dir: string): string[];
  wrap(source: string): string;
  enableCompileCache?: (dir?: string) => unknown;
}

const internals = Module as unknown as NodeModuleInternals;

/** `require(path)` through a V8 code cache. */
export function requireWithCodeCache(path: string): unknown {
  const cached = internals._cache[path];
  if (cached) return cached.exports;
  if (process.env.OPGEN_NO_COMPILE_CACHE) return createRequire(path)(path);
  if (typeof internals.enableCompileCache === "function") {
    // Node >= 22.1: the cache of every module compiled from here on, written by Node itself.
    internals.enableCompileCache(join(tmpdir(), "opgen-compile-cache"));
    return createRequire(path)(path);
  }
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    const { size, mtimeMs } = statSync(path);
    const key = createHash("sha1")
      .update(`${path}|${size}|${mtimeMs}|${process.version}|${process.arch}`)
      .digest("hex");
    cacheFile = join(tmpdir(), "opgen-compile-cache", `${key}.bin`);
    if (existsSync(cacheFile)) cachedData = readFileSync(cacheFile);
  } catch {
    cacheFile = undefined;
  }
  const script = new Script(internals.wrap(readFileSync(path, "utf8")), {
    filename: path,
    cachedData,
  });
  const mod = new Module(path) as NodeJS.Module & {
    filename: string;
    paths: string[];
    loaded: boolean;
  };
  mod.filename = path;
  mod.paths = internals._nodeModulePaths(dirname(path));
  internals._cache[path] = mod;
  try {
    const fn = script.runInThisContext() as (...args: unknown[]) => void;
    fn.call(mod.exports, mod.exports, createRequire(path), mod, path, dirname(path));
    mod.loaded = true;
  } catch (error) {
    delete internals._cache[path];
    throw error;
  }
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    const file = cacheFile;
    // Written at exit, so the cache also holds the functions this run compiled lazily (the parser).
    process.once("exit", () => {
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, script.createCachedData());
      } catch {
        // A read-only temp folder: run without a cache.
      }
    });
  }
  return mod.exports;
}
