/**
 * Generated tests that survive the user's first edit (issue 25): through the real CLI, a project
 * whose kinds gain required fields (a plain `size: number` with bounds, an `@required` field with a
 * pattern) still passes its own `npm test`: the controller tests of `create api`, and the webhook
 * tests of `create webhook --defaulting --programmatic-validation` scaffolded before the field was
 * added (Widget) and after (AppCluster), all build their objects with `env.example` from the CRD
 * `npm test` regenerates. And the project type-checks test/: a type error planted there fails
 * `npm test` and `npm run build` with tsc's message naming the file, while dist/ holds no tests.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli, runOrThrow, scaffoldAppCluster, tempDir } from "../helpers/cli.js";

const dir = join(tempDir("opgen-e2e-tests-"), "appcluster-operator");
const INSERT = "  // INSERT ADDITIONAL SPEC FIELDS - desired state of the resource.\n";

async function opgen(...args: string[]) {
  const result = await runCli(args, dir);
  expect(result.exitCode, `${args.join(" ")}: ${result.stderr}`).toBe(0);
}

/** Adds `fields` to the kind's spec in its types file, as a user's first edit does. */
function addSpecFields(lowerKind: string, fields: string) {
  const file = join(dir, `src/api/v1/${lowerKind}.types.ts`);
  const text = readFileSync(file, "utf8");
  expect(text).toContain(INSERT);
  writeFileSync(
    file,
    text.replace(INSERT, () => `${INSERT}${fields}`),
  );
}

/** `npm <args>` in the project, plain text, never throwing: exit code and all it printed. */
async function npm(...args: string[]) {
  const r = await execa("npm", args, { cwd: dir, reject: false, all: true, env: { CI: "true" } });
  return { exitCode: r.exitCode, all: stripVTControlCharacters(r.all ?? "") };
}

const webhookFlags = ["--version", "v1", "--defaulting", "--programmatic-validation"];

describe("generated tests after the user's first edit", () => {
  beforeAll(async () => {
    await scaffoldAppCluster(dir);
    await opgen("create", "api", "--group", "demo", "--version", "v1", "--kind", "Widget");
    // Widget's webhook test is scaffolded before its field exists.
    await opgen("create", "webhook", "--group", "demo", "--kind", "Widget", ...webhookFlags);
    addSpecFields(
      "appcluster",
      "  /**\n   * size is the number of pods.\n   * @validation Minimum=1\n   * @validation Maximum=10\n   */\n  size: number;\n\n",
    );
    addSpecFields(
      "widget",
      "  /**\n   * @required\n   * @validation Pattern=`^[a-z]+-[0-9]{2}$`\n   */\n  tier?: string;\n\n",
    );
  }, 300_000);

  it("passes npm test once fields are required: controller tests and a webhook test scaffolded before", async () => {
    const { exitCode, all } = await npm("test");
    expect(exitCode, all).toBe(0);
    // The fields are required in the regenerated CRDs: an object with `spec: {}` is refused.
    const required = (plural: string) =>
      parse(readFileSync(join(dir, `config/crd/bases/demo.my.domain_${plural}.yaml`), "utf8")).spec
        .versions[0].schema.openAPIV3Schema.properties.spec.required;
    expect(required("appclusters")).toEqual(["size"]);
    expect(required("widgets")).toEqual(["tier"]);
    expect(all).toContain("test/appcluster.controller.test.ts (1 test)");
    expect(all).toContain("test/widget.controller.test.ts (1 test)");
    expect(all).toContain("test/webhooks/v1/widget.webhook.test.ts (3 tests)");
    expect(all).toMatch(/Tests {2}5 passed \(5\)/);
  }, 600_000);

  it("passes npm test with a webhook test scaffolded after the field was added", async () => {
    await opgen("create", "webhook", "--group", "demo", "--kind", "AppCluster", ...webhookFlags);
    const { exitCode, all } = await npm("test");
    expect(exitCode, all).toBe(0);
    expect(all).toContain("test/webhooks/v1/appcluster.webhook.test.ts (3 tests)");
    expect(all).toMatch(/Tests {2}8 passed \(8\)/);
  }, 600_000);

  it("fails npm test and npm run build on a type error in test/, naming the file; dist/ holds no tests", async () => {
    const file = join(dir, "test/widget.controller.test.ts");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, `${original}\nexport const planted: number = "not a number";\n`);
    const message =
      /test\/widget\.controller\.test\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'\./;
    try {
      const test = await npm("test");
      expect(test.exitCode, test.all).not.toBe(0);
      expect(test.all).toMatch(message);
      const build = await npm("run", "build");
      expect(build.exitCode, build.all).not.toBe(0);
      expect(build.all).toMatch(message);
    } finally {
      writeFileSync(file, original);
    }
    await runOrThrow(dir, "npm", ["run", "build"]);
    const emitted = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? emitted(join(d, e.name)) : [relative(join(dir, "dist"), join(d, e.name))],
      );
    const files = emitted(join(dir, "dist"));
    expect(files).toContain("main.js");
    expect(files.filter((f) => /test/.test(f))).toEqual([]);
  }, 600_000);
});
