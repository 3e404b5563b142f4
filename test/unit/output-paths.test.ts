/**
 * Output paths checked before anything is written, and project files read without Node's pathless
 * errors: a folder in the way, a file where a folder must be, a symbolic link to nothing.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFilesAtomically } from "../../src/util/atomic-write.js";
import { CliError, CliErrors, fileSystemErrorMessage } from "../../src/util/errors.js";
import { outputPathProblem, writeTarget } from "../../src/util/output-paths.js";
import { readProjectFile } from "../../src/util/read-file.js";
import { snapshot, tempDir } from "../helpers/cli.js";

function project(): string {
  const root = tempDir("opgen-output-paths-");
  mkdirSync(join(root, "config/rbac"), { recursive: true });
  writeFileSync(join(root, "config/rbac/role.yaml"), "old\n");
  writeFileSync(join(root, "PROJECT"), "domain: x\n");
  return root;
}

describe("outputPathProblem", () => {
  it("accepts a new file, a file to replace, and missing folders", () => {
    const root = project();
    for (const path of ["config/rbac/role.yaml", "config/crd/bases/a.yaml", "new/deep/x.yaml"])
      expect(outputPathProblem(root, path)).toBeUndefined();
  });

  it.each([
    [
      "a folder where the file goes",
      (root: string) => mkdirSync(join(root, "config/crd.yaml")),
      "config/crd.yaml",
      "cannot write config/crd.yaml: it is a folder; move it away (or write elsewhere) and run again",
    ],
    [
      "a file where a folder goes",
      () => {},
      "PROJECT/crds/a.yaml",
      "cannot write PROJECT/crds/a.yaml: PROJECT is a file, not a folder; move it away (or write elsewhere) and run again",
    ],
    [
      "a link to nothing where the file goes",
      (root: string) => symlinkSync("gone", join(root, "config/a.yaml")),
      "config/a.yaml",
      "cannot write config/a.yaml: it is a symbolic link to gone, which does not exist; create its target or remove the link, and run again",
    ],
    [
      "a link to nothing where a folder goes",
      (root: string) => symlinkSync("gone", join(root, "out")),
      "out/a.yaml",
      "cannot write out/a.yaml: out is a symbolic link to gone, which does not exist; create its target or remove the link, and run again",
    ],
  ])("refuses %s", (_what, setup, path, message) => {
    const root = project();
    setup(root);
    expect(outputPathProblem(root, path)?.message).toBe(message);
  });

  it("writes through a link to a file, and into a linked folder", () => {
    const root = project();
    symlinkSync("rbac/role.yaml", join(root, "config/role.yaml"));
    symlinkSync("config", join(root, "linked"));
    expect(outputPathProblem(root, "config/role.yaml")).toBeUndefined();
    expect(writeTarget(root, "config/role.yaml")).toBe(join(root, "config/rbac/role.yaml"));
    expect(outputPathProblem(root, "linked/rbac/role.yaml")).toBeUndefined();
  });
});

describe("writeFilesAtomically", () => {
  it("writes nothing when one output is in the way, naming each obstacle once", () => {
    const root = project();
    mkdirSync(join(root, "config/crd"));
    writeFileSync(join(root, "config/crd/bases"), "");
    const before = snapshot(root);
    let error: unknown;
    try {
      writeFilesAtomically(root, [
        { path: "config/rbac/role.yaml", content: "new\n" },
        { path: "config/crd/bases/a.yaml", content: "a\n" },
        { path: "config/crd/bases/b.yaml", content: "b\n" },
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliErrors);
    expect((error as CliErrors).messages).toEqual([
      "cannot write config/crd/bases/a.yaml: config/crd/bases is a file, not a folder; move it away (or write elsewhere) and run again; nothing was written",
    ]);
    expect(snapshot(root)).toEqual(before);
  });

  it("keeps a link it writes through", () => {
    const root = project();
    symlinkSync("rbac/role.yaml", join(root, "config/role.yaml"));
    writeFilesAtomically(root, [{ path: "config/role.yaml", content: "new\n" }]);
    expect(snapshot(root)["config/role.yaml"]).toBe("-> rbac/role.yaml");
    expect(readFileSync(join(root, "config/rbac/role.yaml"), "utf8")).toBe("new\n");
  });
});

describe("readProjectFile", () => {
  it("reads a file, and says undefined for none", () => {
    const root = project();
    expect(readProjectFile(root, "PROJECT")).toBe("domain: x\n");
    expect(readProjectFile(root, "src/main.ts")).toBeUndefined();
  });

  it.each([
    [
      "a folder",
      (root: string) => mkdirSync(join(root, "src/main.ts"), { recursive: true }),
      "src/main.ts",
      "cannot read src/main.ts: it is a folder, where opgen expects a file; move the folder away and run again",
    ],
    [
      "a file in its path",
      () => {},
      "PROJECT/x",
      "cannot read PROJECT/x: PROJECT is a file, not a folder; move it away and run again",
    ],
    [
      "a link to nothing",
      (root: string) => symlinkSync("gone", join(root, "main.ts")),
      "main.ts",
      "cannot read main.ts: it is a symbolic link to gone, which does not exist; create its target or remove the link, and run again",
    ],
  ])("refuses %s in one line", (_what, setup, path, message) => {
    const root = project();
    setup(root);
    expect(() => readProjectFile(root, path)).toThrow(new CliError(message));
  });
});

describe("fileSystemErrorMessage", () => {
  it.each([
    ["EACCES", "permission denied; check the permissions of the file and its folders"],
    ["EROFS", "the file system is read-only; write to another folder"],
    ["ENOSPC", "no space left on the device; free some space and run again"],
  ])("says what %s means and what to do", (code, reason) => {
    expect(
      fileSystemErrorMessage({ code, syscall: "open", path: "/p/config/rbac/role.yaml" }, "/p"),
    ).toBe(`cannot open config/rbac/role.yaml: ${reason}`);
  });
});
