/**
 * The compile cache holds code that will run, so it lives in a per-user directory created 0700,
 * and a directory another user could have written to is never used (nor followed, if a symlink):
 * opgen then works without a cache. Running as root, a real chown plays the other owner; as any
 * user, the expected uid is passed in so the owner check is exercised too.
 */
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  compileCacheDir,
  compileCacheLocation,
  requireWithCodeCache,
  trustedCacheDir,
} from "../../src/source/compile-cache.js";

const root = mkdtempSync(join(tmpdir(), "opgen-ccdir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

const uid = process.getuid?.();
let n = 0;
const fresh = () => join(root, `case-${++n}`);

describe("compile cache location", () => {
  it("is $XDG_CACHE_HOME/opgen, else <tmpdir>/opgen-<uid>; a relative XDG_CACHE_HOME is ignored", () => {
    expect(
      compileCacheLocation({
        env: { XDG_CACHE_HOME: "/home/u/.cache" },
        tmpdir: "/tmp",
        uid: 1000,
      }),
    ).toBe("/home/u/.cache/opgen");
    expect(
      compileCacheLocation({ env: { XDG_CACHE_HOME: "rel/cache" }, tmpdir: "/tmp", uid: 1000 }),
    ).toBe("/tmp/opgen-1000");
    expect(compileCacheLocation({ env: {}, tmpdir: "/var/tmp", uid: 0 })).toBe("/var/tmp/opgen-0");
    // Without uids (Windows) the user name keeps users apart.
    expect(compileCacheLocation({ env: {}, tmpdir: "/t", uid: undefined })).toMatch(
      /^\/t\/opgen-[\w.-]+$/,
    );
  });

  it("is off with OPGEN_NO_COMPILE_CACHE", () => {
    const xdg = fresh();
    expect(
      compileCacheDir({
        env: { OPGEN_NO_COMPILE_CACHE: "1", XDG_CACHE_HOME: xdg },
        tmpdir: root,
        uid,
      }),
    ).toBe(undefined);
    expect(() => lstatSync(xdg)).toThrow();
  });
});

describe.runIf(uid !== undefined)("trustedCacheDir", () => {
  it("creates the directory (and its parents) with mode 0700 and uses it", () => {
    const dir = join(fresh(), "a", "opgen");
    expect(trustedCacheDir(dir, uid)).toBe(dir);
    const st = lstatSync(dir);
    expect(st.isDirectory()).toBe(true);
    expect(st.mode & 0o777).toBe(0o700);
    expect(st.uid).toBe(uid);
    // Again: an existing trusted directory is used as it is.
    expect(trustedCacheDir(dir, uid)).toBe(dir);
  });

  it("keeps using an own directory that others can read but not write", () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    expect(trustedCacheDir(dir, uid)).toBe(dir);
  });

  it("ignores a directory owned by another user (expected uid differs)", () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    expect(trustedCacheDir(dir, (uid as number) + 4242)).toBe(undefined);
  });

  it.runIf(uid === 0)("ignores a directory chowned to another user", () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 4242, 4242);
    expect(trustedCacheDir(dir, 0)).toBe(undefined);
    const xdg = fresh();
    mkdirSync(join(xdg, "opgen"), { recursive: true, mode: 0o700 });
    chownSync(join(xdg, "opgen"), 4242, 4242);
    expect(compileCacheDir({ env: { XDG_CACHE_HOME: xdg }, tmpdir: root, uid: 0 })).toBe(undefined);
  });

  it("ignores a group- or world-writable directory", () => {
    for (const mode of [0o777, 0o770, 0o702, 0o720]) {
      const dir = fresh();
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(trustedCacheDir(dir, uid), mode.toString(8)).toBe(undefined);
    }
  });

  it("ignores a symlink, even to a trusted directory, and a file in its place", () => {
    const target = fresh();
    mkdirSync(target, { mode: 0o700 });
    const link = fresh();
    symlinkSync(target, link);
    expect(trustedCacheDir(link, uid)).toBe(undefined);
    const dangling = fresh();
    symlinkSync(join(root, "nowhere"), dangling);
    expect(trustedCacheDir(dangling, uid)).toBe(undefined);
    expect(() => lstatSync(join(root, "nowhere"))).toThrow();
    const file = fresh();
    writeFileSync(file, "x");
    expect(trustedCacheDir(file, uid)).toBe(undefined);
  });
});

describe.runIf(uid !== undefined)("requireWithCodeCache and the cache directory", () => {
  const internals = Module as unknown as {
    _cache: Record<string, unknown>;
    enableCompileCache?: (dir?: string) => unknown;
  };

  function withEngine<T>(engine: ((dir?: string) => unknown) | undefined, fn: () => T): T {
    const own = Object.getOwnPropertyDescriptor(internals, "enableCompileCache");
    if (engine) internals.enableCompileCache = engine;
    else delete internals.enableCompileCache;
    try {
      return fn();
    } finally {
      if (own) Object.defineProperty(internals, "enableCompileCache", own);
      else delete internals.enableCompileCache;
    }
  }

  function module(name: string): string {
    const file = join(root, `${name}-${++n}.cjs`);
    writeFileSync(file, `exports.name = ${JSON.stringify(name)};\n`);
    return file;
  }

  it("writes the V8 cache into the per-user directory, 0600 (Node 20 path)", () => {
    const xdg = fresh();
    vi.stubEnv("XDG_CACHE_HOME", xdg);
    vi.stubEnv("OPGEN_NO_COMPILE_CACHE", "");
    const file = module("own");
    withEngine(undefined, () => {
      const before = process.listeners("exit");
      expect(requireWithCodeCache(file)).toEqual({ name: "own" });
      const added = process.listeners("exit").filter((l) => !before.includes(l));
      expect(added).toHaveLength(1);
      process.removeListener("exit", added[0] as () => void);
      (added[0] as (code: number) => void)(0);
    });
    delete internals._cache[file];
    const dir = join(xdg, "opgen");
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{40}\.bin$/);
    expect(lstatSync(join(dir, files[0] as string)).mode & 0o777).toBe(0o600);
  });

  it("loads without a cache, writing nothing, when the directory is someone else's to write", () => {
    const xdg = fresh();
    mkdirSync(join(xdg, "opgen"), { recursive: true });
    chmodSync(join(xdg, "opgen"), 0o777);
    vi.stubEnv("XDG_CACHE_HOME", xdg);
    vi.stubEnv("OPGEN_NO_COMPILE_CACHE", "");
    const file = module("untrusted");
    withEngine(undefined, () => {
      const before = process.listenerCount("exit");
      expect(requireWithCodeCache(file)).toEqual({ name: "untrusted" });
      expect(process.listenerCount("exit")).toBe(before);
    });
    delete internals._cache[file];
    expect(readdirSync(join(xdg, "opgen"))).toEqual([]);
  });

  it("never hands a symlinked directory to Node's own compile cache (22.1+)", () => {
    const target = fresh();
    mkdirSync(target, { mode: 0o700 });
    const xdg = fresh();
    mkdirSync(xdg);
    symlinkSync(target, join(xdg, "opgen"));
    vi.stubEnv("XDG_CACHE_HOME", xdg);
    vi.stubEnv("OPGEN_NO_COMPILE_CACHE", "");
    const enable = vi.fn();
    const file = module("linked");
    withEngine(enable, () => expect(requireWithCodeCache(file)).toEqual({ name: "linked" }));
    expect(enable).not.toHaveBeenCalled();

    const trusted = fresh();
    vi.stubEnv("XDG_CACHE_HOME", trusted);
    const other = module("trusted");
    withEngine(enable, () => expect(requireWithCodeCache(other)).toEqual({ name: "trusted" }));
    expect(enable).toHaveBeenCalledWith(join(trusted, "opgen"));
  });
});
