import { describe, expect, it } from "vitest";
import { CliError } from "../../src/util/errors.js";
import {
  isDns1123Label,
  isDns1123Subdomain,
  kebabCase,
  pluralOf,
  projectNameFromDir,
  validateDomain,
  validateGroup,
  validateKind,
  validatePlural,
  validateProjectName,
  validateVersion,
} from "../../src/util/naming.js";

describe("DNS-1123 names", () => {
  it("accepts labels and subdomains", () => {
    expect(isDns1123Label("app-1")).toBe(true);
    expect(isDns1123Subdomain("demo.my.domain")).toBe(true);
  });
  it("rejects upper case, edges, empty parts and overlong labels", () => {
    for (const bad of ["App", "-a", "a-", "", "a_b", "a".repeat(64)])
      expect(isDns1123Label(bad)).toBe(false);
    for (const bad of ["a..b", ".a", "a.", "a/b"]) expect(isDns1123Subdomain(bad)).toBe(false);
  });
});

describe("validation of create api flags", () => {
  it("accepts the tutorial's names", () => {
    expect(() => validateGroup("demo", "my.domain")).not.toThrow();
    expect(() => validateGroup("batch.apps", "my.domain")).not.toThrow();
    // A group that only ends like the domain is its own group.
    expect(() => validateGroup("webappmy.domain", "my.domain")).not.toThrow();
    for (const v of ["v1", "v1beta1", "v2alpha3", "v10"])
      expect(() => validateVersion(v)).not.toThrow();
    expect(() => validateKind("AppCluster")).not.toThrow();
  });

  it.each([
    ["group", () => validateGroup("Demo", "my.domain"), /invalid --group "Demo"/],
    ["group", () => validateGroup("", "my.domain"), /invalid --group ""/],
    ["group traversal", () => validateGroup("../x", "my.domain"), /invalid --group/],
    [
      "group holding the domain",
      () => validateGroup("webapp.my.domain", "my.domain"),
      /^invalid --group "webapp\.my\.domain": the project's domain my\.domain is added to the group, so pass --group webapp for the API group webapp\.my\.domain$/,
    ],
    [
      "group that is the domain",
      () => validateGroup("my.domain", "my.domain"),
      /^invalid --group "my\.domain": .*pass the group's own name \(e\.g\. --group webapp\)/,
    ],
    ["version", () => validateVersion("1"), /invalid --version "1"/],
    ["version", () => validateVersion("v1beta"), /invalid --version/],
    ["version", () => validateVersion("V1"), /invalid --version/],
    ["kind lower", () => validateKind("appCluster"), /invalid --kind "appCluster"/],
    ["kind traversal", () => validateKind("../../x"), /invalid --kind "..\/..\/x"/],
    ["kind separator", () => validateKind("App/Cluster"), /invalid --kind/],
    ["plural", () => validatePlural("App_Clusters"), /invalid --plural/],
    ["domain", () => validateDomain("My_Domain"), /invalid --domain/],
    ["project", () => validateProjectName("My Project"), /invalid project name/],
  ])("rejects a bad %s with a one-line CliError", (_what, call, message) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });
});

describe("derived names", () => {
  it("pluralizes kinds as Kubernetes users expect", () => {
    expect(pluralOf("AppCluster")).toBe("appclusters");
    expect(pluralOf("Policy")).toBe("policies");
    expect(pluralOf("Ingress")).toBe("ingresses");
    expect(pluralOf("Proxy")).toBe("proxies");
    expect(pluralOf("Endpoints")).toBe("endpoints");
    expect(pluralOf("Person")).toBe("people");
    // flect's answers, as Kubebuilder records them (the pluralize library said cronjobses).
    expect(pluralOf("CronJob")).toBe("cronjobs");
    expect(pluralOf("Cronjobs")).toBe("cronjobs");
    expect(pluralOf("Oneof")).toBe("oneofs");
  });
  it("derives project names and kebab case", () => {
    expect(projectNameFromDir("My_Operator Project")).toBe("my-operator-project");
    expect(kebabCase("AppCluster")).toBe("app-cluster");
    expect(kebabCase("HTTPRoute")).toBe("http-route");
  });
});

describe("user text written into generated files", () => {
  it("refuses an owner that would break or escape the license header", async () => {
    const { validateOwner } = await import("../../src/util/naming.js");
    expect(() => validateOwner("ACME, Inc. <legal@acme.example>")).not.toThrow();
    for (const bad of ["a\nb", "evil */ import x from 'y'; /*", "tab\there", " "]) {
      expect(() => validateOwner(bad)).toThrow(
        /^invalid --owner .*: it goes into the \/\* \*\/ license header/,
      );
    }
  });

  it("refuses a dependency spec with control characters or nothing in it", async () => {
    const { validateDependencySpec } = await import("../../src/util/naming.js");
    expect(() =>
      validateDependencySpec("--runtime-spec", "file:../My Folder/runtime"),
    ).not.toThrow();
    expect(() => validateDependencySpec("--runtime-spec", "1.0.0\n  evil")).toThrow(
      'invalid --runtime-spec "1.0.0\\n  evil": an npm dependency spec is one non-empty line',
    );
  });
});
