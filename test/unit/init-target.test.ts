/**
 * What `opgen init` scaffolds next to: the files a repository holds before its first scaffold are
 * accepted, anything else is a blocker, and the scaffold's ignore files merge into the user's.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveDependencySpecs } from "../../src/generators/scaffold/context.js";
import { planInit } from "../../src/generators/scaffold/init-plan.js";
import {
  findInitBlockers,
  findReadme,
  isAcceptedFile,
  mergeIgnoreFile,
} from "../../src/generators/scaffold/init-target.js";
import { tempDir } from "../helpers/cli.js";

function folder(files: Record<string, string>): string {
  const root = tempDir("opgen-init-target-");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe("isAcceptedFile", () => {
  it("accepts dotfiles, Markdown, license-like and all-capital names", () => {
    for (const name of [
      ".gitignore",
      ".editorconfig",
      ".nvmrc",
      ".npmrc",
      "README.md",
      "readme.md",
      "CONTRIBUTING.md",
      "notes.MD",
      "LICENSE",
      "LICENSE.txt",
      "LICENSE-MIT",
      "LICENCE",
      "COPYING",
      "NOTICE",
      "AUTHORS",
      "OWNERS",
      "README",
      "README.rst",
      "CHANGELOG.txt",
    ]) {
      expect(isAcceptedFile(name), name).toBe(true);
    }
  });

  it("refuses source, manifests, package files and PROJECT", () => {
    for (const name of [
      "main.ts",
      "index.js",
      "package.json",
      "package-lock.json",
      "tsconfig.json",
      "Dockerfile",
      "notes.txt",
      "PROJECT",
      "kustomization.yaml",
    ]) {
      expect(isAcceptedFile(name), name).toBe(false);
    }
  });
});

describe("findInitBlockers", () => {
  it("finds nothing in a freshly started repository", () => {
    const root = folder({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/objects/ab/cdef": "x",
      ".github/CODEOWNERS": "* @me\n",
      ".gitignore": "node_modules/\n",
      "README.md": "# mine\n",
      LICENSE: "MIT\n",
      "docs/design.md": "# design\n",
    });
    expect(findInitBlockers(root)).toEqual([]);
  });

  it("lists every other file, sorted and relative, also in sub-folders and symbolic links", () => {
    const root = folder({
      "main.ts": "",
      "package.json": "{}",
      "README.md": "# mine\n",
      "docs/build.sh": "",
      "docs/intro.md": "",
      "node_modules/x/index.js": "",
      "dist/main.js": "",
      "dist/api/v1/thing.js": "",
      "packages/a/node_modules/y/index.js": "",
    });
    symlinkSync("main.ts", join(root, "link.ts"));
    // node_modules/ and dist/ are one blocker each, wherever they are, never their files.
    expect(findInitBlockers(root)).toEqual([
      "dist/",
      "docs/build.sh",
      "link.ts",
      "main.ts",
      "node_modules/",
      "package.json",
      "packages/a/node_modules/",
    ]);
  });
});

describe("findReadme", () => {
  it("finds the user's README in any case, and nothing when there is none", () => {
    expect(findReadme(folder({ "readme.md": "" }))).toBe("readme.md");
    expect(findReadme(folder({ "README.rst": "" }))).toBe("README.rst");
    expect(findReadme(folder({ "CONTRIBUTING.md": "", "docs/README.md": "" }))).toBeUndefined();
  });
});

describe("mergeIgnoreFile", () => {
  const gitignore = "node_modules/\ndist/\ncoverage/\n*.kubeconfig\n";

  it("appends only the missing patterns of an ignore file without negations", () => {
    expect(mergeIgnoreFile("# mine\n.env\ndist/\n", gitignore)).toBe(
      "# mine\n.env\ndist/\n\n# Added by opgen init\nnode_modules/\ncoverage/\n*.kubeconfig\n",
    );
    expect(mergeIgnoreFile(".env", gitignore)).toBe(
      ".env\n\n# Added by opgen init\nnode_modules/\ndist/\ncoverage/\n*.kubeconfig\n",
    );
    expect(mergeIgnoreFile("", "dist/\n")).toBe("# Added by opgen init\ndist/\n");
  });

  it("changes nothing when every pattern is there", () => {
    expect(mergeIgnoreFile(`*.log\n${gitignore}`, gitignore)).toBeUndefined();
  });

  it("appends an allow-list whole, since its order matters, unless the file ends with it", () => {
    const dockerignore = "# only these\n*\n!package.json\n!src/\n";
    // `!src/` before `*` would not re-include src/: the whole list must come last.
    const merged = mergeIgnoreFile("!src/\n*\n", dockerignore);
    expect(merged).toBe("!src/\n*\n\n# Added by opgen init\n*\n!package.json\n!src/\n");
    expect(mergeIgnoreFile(merged ?? "", dockerignore)).toBeUndefined();
  });
});

describe("planInit next to existing files", () => {
  const options = {
    projectName: "demo",
    domain: "example.com",
    owner: "me",
    license: "none" as const,
    multigroup: false,
    specs: resolveDependencySpecs({}),
    emptyRole: { path: "config/rbac/role.yaml", content: "kind: ClusterRole\n" },
  };

  it("writes its README and ignore files into a new folder", () => {
    const plan = planInit(options);
    for (const path of ["README.md", ".gitignore", ".dockerignore"]) {
      expect(plan.get(path)?.action, path).toBe("create");
    }
  });

  it("keeps the user's README and merges into the user's .gitignore", () => {
    const existing: Record<string, string> = { ".gitignore": ".env\n" };
    const plan = planInit({
      ...options,
      existing: { readme: "readme.md", read: (path) => existing[path] },
    });
    expect(plan.get("README.md")).toBeUndefined();
    const gitignore = plan.get(".gitignore");
    expect(gitignore?.action).toBe("update");
    expect(gitignore?.content).toMatch(/^\.env\n\n# Added by opgen init\nnode_modules\/\n/);
    expect(plan.get(".dockerignore")?.action).toBe("create");
  });
});
