/**
 * Builds and runs the structured-merge-diff oracle (main.go beside this file) with the Debian
 * packages golang-1.19-go and golang-k8s-sigs-structured-merge-diff-dev (see .ci/oracles.sh).
 * The binary is cached under node_modules/.cache by the hash of its source; `available()`
 * says why it cannot be built, and OPGEN_REQUIRE_ORACLES=1 (CI) turns that into a failure.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const GO = "/usr/lib/go-1.19/bin/go";
const SMD = "/usr/share/gocode/src/sigs.k8s.io/structured-merge-diff";

/** Why the oracle cannot be built here, or undefined when it can. */
export function unavailable(): string | undefined {
  if (!existsSync(GO))
    return `${GO} is missing (apt-get install golang-1.19-go; see .ci/oracles.sh)`;
  if (!existsSync(join(SMD, "merge", "update.go")))
    return `${SMD} is missing (apt-get install golang-k8s-sigs-structured-merge-diff-dev)`;
  return undefined;
}

let built: string | undefined;

/** The oracle binary, built once per source hash. */
export function oracleBinary(): string {
  if (built) return built;
  const source = readFileSync(join(here, "main.go"));
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const cache = resolve(here, "../../../node_modules/.cache/opgen-oracles");
  const bin = join(cache, `ssa-${hash}`);
  if (!existsSync(bin)) {
    // GOPATH mode: SMD's own imports say sigs.k8s.io/structured-merge-diff/v4, which a link in
    // a private GOPATH resolves to the Debian sources (they carry no v4 directory).
    const gopath = join(cache, "gopath");
    const link = join(gopath, "src/sigs.k8s.io/structured-merge-diff/v4");
    mkdirSync(dirname(link), { recursive: true });
    if (!existsSync(link)) symlinkSync(SMD, link);
    const tmp = `${bin}.${process.pid}.tmp`;
    execFileSync(GO, ["build", "-o", tmp, "."], {
      cwd: here,
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        ...process.env,
        GO111MODULE: "off",
        GOPATH: `${gopath}:/usr/share/gocode`,
        GOCACHE: join(cache, "gocache"),
        GOFLAGS: "",
      },
    });
    renameSync(tmp, bin);
  }
  built = bin;
  return bin;
}

export interface OracleOp {
  op: "apply" | "update";
  manager: string;
  force: boolean;
  object: Record<string, unknown>;
  /** The request's version, when not the run's (versions share one schema). */
  apiVersion?: string;
}

export interface OracleStep {
  object?: unknown;
  managed?: Record<string, unknown>;
  conflicts?: { manager: string; path: string }[] | null;
  error?: string;
}

/** Runs scenarios, each with its own schema, through the oracle: one list of steps each. */
export function runOracle(
  type: string,
  apiVersion: string,
  cases: { schema: unknown; ops: OracleOp[]; reset?: string[][] }[],
): OracleStep[][] {
  const input = JSON.stringify({
    type,
    apiVersion,
    cases: cases.map((c) => ({
      schema: JSON.stringify(c.schema),
      ...(c.reset?.length ? { reset: c.reset } : {}),
      ops: c.ops,
    })),
  });
  const r = spawnSync(oracleBinary(), [], { input, maxBuffer: 1 << 30, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ssa oracle failed: ${r.stderr}`);
  return r.stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { steps: OracleStep[] }).steps);
}
