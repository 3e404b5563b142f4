import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CLIENT_NODE_VERSION,
  leaderElectionId,
  licenseHeader,
  toolVersions,
} from "../../src/generators/scaffold/context.js";
import { REPO_ROOT } from "../helpers/cli.js";

const pkg = (path: string) => JSON.parse(readFileSync(join(REPO_ROOT, path), "utf8"));

describe("scaffold context", () => {
  it("pins the client-node version the runtime and envtest are built on", () => {
    expect(pkg("packages/runtime/package.json").dependencies["@kubernetes/client-node"]).toBe(
      CLIENT_NODE_VERSION,
    );
    expect(pkg("packages/envtest/package.json").dependencies["@kubernetes/client-node"]).toBe(
      CLIENT_NODE_VERSION,
    );
  });

  it("gives new projects the tool versions opgen itself is tested with", () => {
    const { dependencies, devDependencies: dev } = pkg("package.json");
    expect(toolVersions()).toEqual({
      typescript: dev.typescript,
      vitest: dev.vitest,
      typesNode: dev["@types/node"],
      clientNode: CLIENT_NODE_VERSION,
      esbuild: dev.esbuild,
      yaml: dependencies.yaml,
    });
  });

  it("derives a stable Kubebuilder-shaped leader election id", () => {
    expect(leaderElectionId("demo", "my.domain")).toMatch(/^[0-9a-f]{8}\.my\.domain$/);
    expect(leaderElectionId("demo", "my.domain")).toBe(leaderElectionId("demo", "my.domain"));
    expect(leaderElectionId("other", "my.domain")).not.toBe(leaderElectionId("demo", "my.domain"));
  });

  it("writes the Apache header only for apache2", () => {
    expect(licenseHeader("apache2", "Jane", 2026)).toMatch(
      /^\/\*\nCopyright 2026 Jane\.\n\nLicensed under the Apache License/,
    );
    expect(licenseHeader("none", "Jane")).toBe("");
  });
});
