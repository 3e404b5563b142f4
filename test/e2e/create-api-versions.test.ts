/**
 * A second version of a kind (issue 16, item 6): `create api` says that one version must be marked
 * @storageversion while none is, `opgen manifests` refuses until one is, and `create webhook
 * --conversion` marks the hub so that both versions generate, v1 stored.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli, tempDir } from "../helpers/cli.js";

const dir = join(tempDir("opgen-versions-"), "appcluster-operator");
const kind = ["--group", "demo", "--kind", "AppCluster"];

async function ok(args: string[]) {
  const result = await runCli(args, dir);
  expect(result.exitCode, `${args.join(" ")}: ${result.stderr}`).toBe(0);
  return result;
}

describe("a second version of a kind", () => {
  beforeAll(async () => {
    mkdirSync(dir);
    await ok(["init", "--domain", "my.domain", "--skip-install"]);
    await ok(["create", "api", ...kind, "--version", "v1"]);
  }, 60_000);

  it("create api names the missing @storageversion and the command that adds it", async () => {
    const { stdout } = await ok([
      "create",
      "api",
      ...kind,
      "--version",
      "v2",
      "--controller=false",
    ]);
    expect(stdout.trim().split("\n").at(-1)).toBe(
      "Next: AppCluster now has versions v1, v2: mark the one the API server stores @storageversion " +
        "(`opgen create webhook --group demo --version v1 --kind AppCluster --conversion --spoke v2` " +
        "marks v1 and converts between them), then run `npm run manifests` and `npm test`.",
    );
    const manifests = await runCli(["manifests"], dir);
    expect(manifests.exitCode).toBe(1);
    expect(manifests.stderr).toContain(
      "kind AppCluster has 2 versions (v1, v2) but none is marked @storageversion",
    );
  });

  it("create webhook --conversion marks the hub, and the CRD stores v1 and serves v2", async () => {
    await ok(["create", "webhook", ...kind, "--version", "v1", "--conversion", "--spoke", "v2"]);
    expect(readFileSync(join(dir, "src/api/v1/appcluster.types.ts"), "utf8")).toContain(
      " * @storageversion\n",
    );
    await ok(["manifests"]);
    const crd = parse(
      readFileSync(join(dir, "config/crd/bases/demo.my.domain_appclusters.yaml"), "utf8"),
    );
    expect(
      crd.spec.versions.map((v: { name: string; served: boolean; storage: boolean }) => [
        v.name,
        v.served,
        v.storage,
      ]),
    ).toEqual([
      ["v1", true, true],
      ["v2", true, false],
    ]);
  });

  it("a third version, once one is stored, gets the usual next step", async () => {
    const { stdout } = await ok([
      "create",
      "api",
      ...kind,
      "--version",
      "v3",
      "--controller=false",
    ]);
    expect(stdout.trim().split("\n").at(-1)).toBe(
      "Next: edit the types, then run `npm run manifests` to generate the CRD and RBAC, and `npm test`.",
    );
  });
});
