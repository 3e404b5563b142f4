/**
 * Loads a large CommonJS file (TypeScript's 9 MB compiler) with a V8 code cache, so that every
 * `opgen manifests` after the first skips most of its compilation (~0.2 s of a ~1 s run). Node 22
 * has this built in (`module.enableCompileCache`), which is used when present; on Node 20 the
 * file is compiled through `vm.Script` with `cachedData`, the technique of the v8-compile-cache
 * package. The module is registered in `require.cache`, so later `require`s of the same file (by
 * ts-morph, for instance) get this instance. V8 checks the cache against the source and its own
 * version and flags, and a rejected or missing cache is rebuilt; any I/O problem just means no
 * cache. OPGEN_NO_COMPILE_CACHE=1 turns it off.
 *
 * The cache is code that will run, so it lives in a per-user directory: `$XDG_CACHE_HOME/opgen`
 * when XDG_CACHE_HOME is set, else `<tmpdir>/opgen-<uid>`, created with mode 0700. A directory
 * someone else could have written to (another owner, group- or world-writable, a symlink, not a
 * directory) is not used, and opgen then runs without a cache rather than fail.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { Script } from "node:vm";

export interface CacheDirContext {
  env: NodeJS.ProcessEnv;
  tmpdir: string;
  /** The user's id; undefined where there is none (Windows), which skips the owner check. */
  uid: number | undefined;
}

function currentContext(): CacheDirContext {
  return { env: process.env, tmpdir: tmpdir(), uid: process.getuid?.() };
}

/** Where this user's cache goes (not yet checked or created). */
export function compileCacheLocation(ctx: CacheDirContext = currentContext()): string {
  const xdg = ctx.env.XDG_CACHE_HOME;
  // The XDG spec says to ignore a relative path.
  if (xdg && isAbsolute(xdg)) return join(xdg, "opgen");
  const who = ctx.uid ?? userInfo().username.replace(/[^A-Za-z0-9_.-]/g, "_");
  return join(ctx.tmpdir, `opgen-${who}`);
}

/**
 * `dir`, created 0700 if missing, when only `uid` can have written to it: a real directory (not a
 * symlink, never followed) owned by `uid` and writable by neither group nor others. Undefined
 * otherwise, or when it cannot be created.
 */
export function trustedCacheDir(dir: string, uid: number | undefined): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (st.isSymbolicLink() || !st.isDirectory()) return undefined;
    if (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** This user's compile cache directory, or undefined when it is off or cannot be trusted. */
export function compileCacheDir(ctx: CacheDirContext = currentContext()): string | undefined {
  if (ctx.env.OPGEN_NO_COMPILE_CACHE) return undefined;
  return trustedCacheDir(compileCacheLocation(ctx), ctx.uid);
}

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
  const dir = compileCacheDir();
  if (!dir) return createRequire(path)(path);
  if (typeof internals.enableCompileCache === "function") {
    // Node >= 22.1: the cache of every module compiled from here on, written by Node itself.
    internals.enableCompileCache(dir);
    return createRequire(path)(path);
  }
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    const { size, mtimeMs } = statSync(path);
    const key = createHash("sha1")
      .update(`${path}|${size}|${mtimeMs}|${process.version}|${process.arch}`)
      .digest("hex");
    cacheFile = join(dir, `${key}.bin`);
    cachedData = readRegularFile(cacheFile);
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
      // Written aside and renamed, so a concurrent run never reads half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: "wx" });
        renameSync(tmp, file);
      } catch {
        // A full or read-only disk: run without a cache.
        rmSync(tmp, { force: true });
      }
    });
  }
  return mod.exports;
}

/** The contents of `file` if it is a regular file (a symlink is not followed), else undefined. */
function readRegularFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}
