/**
 * The CRDs kube-apiserver's validator passed before, remembered in a small cache (like the V8
 * code cache of compile-cache.ts, in the per-user temporary folder, keyed by the versions of the
 * validator and of its CEL and RE2 engines; OPGEN_NO_COMPILE_CACHE=1 turns it off), so a run whose
 * CRDs all passed before loads neither the validator nor the engines (~40 ms). Failures are never
 * cached.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { compileCacheDir } from "../../source/compile-cache.js";

/**
 * Bumped when the checks refuse more than before (2: Kubernetes CEL environment, type checks;
 * 3: estimated rule costs; 4: kube's typing of preserve-unknown-fields and embedded resources,
 * costs of library functions, computed lists, cel.bind and optional access; 5: whole CRDs
 * through @opgen/apimachinery/apiextensions).
 */
const CHECKS_REVISION = 5;

/** Where CRDs validated before are remembered, or undefined when caching is off or impossible. */
export function cacheFile(): string | undefined {
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
    // The validator's version and the checks' own revision are part of the key: a change in what
    // they refuse must not reuse what an older check let through.
    const key = createHash("sha256")
      .update(
        `apimachinery@${version("@opgen/apimachinery")} re2js@${version("re2js")} cel-js@${version("@marcbachmann/cel-js")} checks@${CHECKS_REVISION}`,
      )
      .digest("hex")
      .slice(0, 16);
    // The per-user directory the TypeScript compile cache trusts (0700, owned by us), never a
    // shared one where another user could plant "already compiled" entries.
    const dir = compileCacheDir();
    return dir ? join(dir, `crd-checks-${key}.json`) : undefined;
  } catch {
    return undefined;
  }
}

export function readCache(file: string | undefined): Set<string> {
  if (!file) return new Set();
  try {
    return new Set(JSON.parse(readFileSync(file, "utf8")) as string[]);
  } catch {
    return new Set();
  }
}

export function writeCache(file: string | undefined, keys: Set<string>): void {
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

/** The cache key of a text (a CRD as JSON). */
export const keyOf = (text: string) =>
  createHash("sha256").update(text).digest("base64url").slice(0, 22);
