/**
 * The third real client: the official Python client (Debian's python3-kubernetes 22.6) against
 * envtest. Each script under python/ drives one group of cases in one Python process and prints
 * what each case saw ("ok" or its failure); the groups run side by side against one server.
 *
 * Needs a python3 that can `import kubernetes`: $OPGEN_PYTHON, else /usr/bin/python3 (Debian's,
 * where `apt-get install python3-kubernetes` puts it; .ci/oracles.sh installs it), else python3
 * on the PATH. Without one the suite is skipped with a notice, or fails under
 * OPGEN_REQUIRE_ORACLES=1 (set by .ci/run).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { fixtures } from "./helpers.js";

const SCRIPTS = join(import.meta.dirname, "python");

function findPython(): string | undefined {
  const candidates = [process.env.OPGEN_PYTHON, "/usr/bin/python3", "python3"];
  for (const python of candidates) {
    if (!python) continue;
    try {
      execFileSync(python, ["-c", "import kubernetes"], { stdio: "ignore" });
      return python;
    } catch {
      // Absent, or without the client: try the next one.
    }
  }
  return undefined;
}

const python = findPython();
if (!python) {
  const message =
    "python client suite unavailable: no python3 that can `import kubernetes` " +
    "(looked at $OPGEN_PYTHON, /usr/bin/python3, python3). Install Debian's python3-kubernetes " +
    "(as root: bash .ci/oracles.sh) or point OPGEN_PYTHON at a python3 with the client.";
  if (process.env.OPGEN_REQUIRE_ORACLES === "1") throw new Error(message);
  console.warn(`\n*** SKIPPED: ${message}\n`);
}

/** The cases of each script, in its order: a case the script no longer reports fails. */
const GROUPS = {
  crud: [
    "configmap_crud",
    "create_answers_carry_status",
    "custom_resource_crud",
    "typed_list_items_have_no_kind",
    "dry_run",
    "pagination",
    "times",
    "defaults",
    "sizes_and_encodings",
    "field_selectors",
    "version",
  ],
  patch: [
    "json_patch",
    "merge_patch",
    "strategic_merge_patch",
    "server_side_apply",
    "apply_custom_resource",
    "apply_undeclared_field",
  ],
  subresources: [
    "deployment_scale_and_status",
    "custom_resource_scale_and_status",
    "statefulset_pod_identity",
  ],
  identity: [
    "rbac_and_impersonation",
    "access_reviews",
    "token_requests",
    "leases",
    "namespace_held_by_finalizer",
  ],
  watch: ["resume_from_resource_version", "bookmark_before_timeout", "expired_after_compaction"],
} as const;

let env: TestEnv;
let state: string;
const results: Record<string, Record<string, string>> = {};

/** Runs one script in its own namespace; its JSON report, or the script's failure. */
async function script(name: string, ...args: string[]): Promise<Record<string, string>> {
  const r = await execa(
    python!,
    [join(SCRIPTS, `${name}.py`), env.kubeconfigPath, `py-${name}`, ...args],
    { reject: false, timeout: 120_000, cwd: SCRIPTS },
  );
  try {
    return JSON.parse(String(r.stdout));
  } catch {
    throw new Error(`python/${name}.py exited ${r.exitCode}: ${r.stderr}`);
  }
}

describe.skipIf(!python)("the official Python client", () => {
  beforeAll(async () => {
    env = await startTestEnv({
      auth: "rbac",
      simulate: true,
      crdDirectoryPaths: [join(fixtures, "crds")],
    });
    state = mkdtempSync(join(tmpdir(), "python-client-"));
    const watch = async () => {
      const before = await script("watch", "before", join(state, "watch.json"));
      // What etcd's compaction does to a disconnected informer: its resourceVersion is gone.
      env.faults.expireHistory();
      const after = await script("watch", "after", join(state, "watch.json"));
      return { ...before, ...after };
    };
    const [crud, patch, subresources, identity, watched] = await Promise.all([
      script("crud"),
      script("patch"),
      script("subresources"),
      script("identity"),
      watch(),
    ]);
    Object.assign(results, { crud, patch, subresources, identity, watch: watched });
  }, 300_000);
  afterAll(async () => {
    await env?.stop();
    if (state) rmSync(state, { recursive: true, force: true });
  });

  for (const [group, cases] of Object.entries(GROUPS)) {
    describe(group, () => {
      for (const name of cases) {
        it(name, () => {
          expect(results[group]?.[name], `python/${group}.py ${name}`).toBe("ok");
        });
      }
    });
  }
});
