/**
 * Builds the Go programs tests compare opgen with (test/oracles/<name>/*.go) against the real Go
 * libraries, offline: a Go toolchain and the libraries' sources in a GOPATH tree, as Debian
 * packages them (.ci/oracles.sh installs them). The build is GOPATH mode (GO111MODULE=off), so no
 * module download happens. A built program is cached per machine under
 * node_modules/.cache/opgen-oracles (or the OS temp dir), keyed by a hash of its source, the
 * toolchain and the library files, so a test run builds it at most once.
 *
 * Where the toolchain or a library is missing the oracle tests skip with a warning naming what to
 * install, unless OPGEN_REQUIRE_ORACLES=1 (set by .ci/run): then they fail.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface GoOracleSpec {
  /** The folder under test/oracles holding the program's main package. */
  name: string;
  /** GOPATH import paths the program needs, checked before building. */
  imports: string[];
  /** The Debian packages that provide the toolchain and the imports, for the install hint. */
  packages: string[];
}

export type GoOracle = { binary: string; missing?: undefined } | { missing: string };

const INSTALL_SCRIPT = ".ci/oracles.sh";

/** The toolchain: $OPGEN_GO, else Debian's Go 1.19, else `go` on the PATH. */
function findGo(): { go: string; version: string } | undefined {
  const candidates = [process.env.OPGEN_GO, "/usr/lib/go-1.19/bin/go", "go"].filter(
    (c): c is string => Boolean(c),
  );
  for (const go of candidates) {
    try {
      const version = execFileSync(go, ["version"], { encoding: "utf8", env: goEnv("", "") });
      return { go, version: version.trim() };
    } catch {
      // Not there or not runnable: try the next one.
    }
  }
  return undefined;
}

/** The GOPATH tree with the libraries' sources: $OPGEN_GOPATH, else Debian's. */
const librariesRoot = () => process.env.OPGEN_GOPATH ?? "/usr/share/gocode";

function cacheRoot(): string {
  const modules = join(REPO_ROOT, "node_modules");
  return existsSync(modules)
    ? join(modules, ".cache", "opgen-oracles")
    : join(tmpdir(), "opgen-oracles");
}

function goEnv(gopath: string, gocache: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GO111MODULE: "off",
    GOPATH: gopath,
    GOCACHE: gocache || join(tmpdir(), "opgen-oracles-gocache"),
    GOFLAGS: "",
    GOENV: "off",
    GOPROXY: "off",
    GOTOOLCHAIN: "local",
    GOTELEMETRY: "off",
    CGO_ENABLED: "0",
  };
}

/** Name, size and mtime of every .go file in the folders: enough to notice an upgrade. */
function fingerprint(dirs: string[]): string {
  const lines: string[] = [];
  for (const dir of dirs) {
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith(".go")) continue;
      const s = statSync(join(dir, f));
      lines.push(`${dir}/${f} ${s.size} ${s.mtimeMs}`);
    }
  }
  return lines.join("\n");
}

const built = new Map<string, GoOracle>();

/** Builds (or finds in the cache) the oracle program; says what is missing when it cannot. */
export function goOracle(spec: GoOracleSpec): GoOracle {
  let oracle = built.get(spec.name);
  if (!oracle) {
    oracle = build(spec);
    built.set(spec.name, oracle);
  }
  return oracle;
}

function build(spec: GoOracleSpec): GoOracle {
  const toolchain = findGo();
  if (!toolchain)
    return { missing: "no Go toolchain (looked at $OPGEN_GO, /usr/lib/go-1.19/bin/go, go)" };
  const libraries = librariesRoot();
  const libDirs = spec.imports.map((imp) => join(libraries, "src", imp));
  const absent = libDirs.filter((d) => !existsSync(d));
  if (absent.length > 0) return { missing: `no Go sources at ${absent.join(", ")}` };
  const source = join(REPO_ROOT, "test", "oracles", spec.name);
  const hash = createHash("sha256")
    .update(toolchain.version)
    .update(fingerprint(libDirs))
    .update(
      readdirSync(source)
        .filter((f) => f.endsWith(".go"))
        .sort()
        .map((f) => `${f}\n${readFileSync(join(source, f), "utf8")}`)
        .join("\n"),
    )
    .digest("hex")
    .slice(0, 16);
  const root = cacheRoot();
  const dir = join(root, `${spec.name}-${hash}`);
  const binary = join(dir, "oracle");
  if (existsSync(binary)) return { binary };
  mkdirSync(dir, { recursive: true });
  // A private first GOPATH entry, so nothing is ever written into the system's source tree.
  const gopath = `${join(root, "gopath")}:${libraries}`;
  const partial = `${binary}.${process.pid}.tmp`;
  try {
    execFileSync(toolchain.go, ["build", "-o", partial, "."], {
      cwd: source,
      env: goEnv(gopath, join(root, "gocache")),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    return { missing: `go build of test/oracles/${spec.name} failed: ${stderr.trim()}` };
  }
  // Two test workers may build at once: the rename makes whichever finishes last win whole.
  renameSync(partial, binary);
  return { binary };
}

/**
 * What a test does without its oracle: fail under OPGEN_REQUIRE_ORACLES=1 (CI), else warn loudly
 * and report the test skipped.
 */
export function withoutOracle(spec: GoOracleSpec, missing: string, skip: () => void): void {
  const message =
    `${spec.name} oracle unavailable: ${missing}. Install the Debian packages ` +
    `${spec.packages.join(" ")} (as root: bash ${INSTALL_SCRIPT}), or point OPGEN_GO at a Go ` +
    "toolchain and OPGEN_GOPATH at a GOPATH tree holding " +
    `${spec.imports.join(", ")}.`;
  if (process.env.OPGEN_REQUIRE_ORACLES === "1") throw new Error(message);
  console.warn(`\n*** SKIPPED: ${message}\n`);
  skip();
}
