/**
 * The RBAC merge and sort algorithm against controller-gen's own golden data: the 41 markers of
 * pkg/rbac/testdata and the role.yaml controller-gen produced from them, compared as objects.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { normalizeRules } from "../../src/generators/rbac/normalize.js";
import { generateRoles, splitPerResource } from "../../src/generators/rbac/roles.js";
import type { RbacRule } from "../../src/generators/rbac/rule.js";
import { CONTROLLER_GEN_FIXTURES } from "../helpers/fixtures.js";

const FIXTURES = join(CONTROLLER_GEN_FIXTURES, "rbac");

/** Reads one `+kubebuilder:rbac:` line the way controller-gen's marker parser does. */
function parseControllerGenMarker(line: string): RbacRule {
  const rule: RbacRule = {
    groups: [],
    resources: [],
    resourceNames: [],
    verbs: [],
    urls: [],
    namespace: "",
    roleName: "",
  };
  const body = line.replace(/^\+kubebuilder:rbac:/, "");
  for (const arg of body.split(",")) {
    const eq = arg.indexOf("=");
    const name = arg.slice(0, eq);
    const values = arg
      .slice(eq + 1)
      .split(";")
      .map((v) => v.replace(/^"(.*)"$/, "$1"));
    if (name === "namespace") rule.namespace = values[0]!;
    else if (name === "roleName") rule.roleName = values[0]!;
    else rule[name as "groups" | "resources" | "resourceNames" | "verbs" | "urls"] = values;
  }
  return rule;
}

function fixtureMarkers(): RbacRule[] {
  return readFileSync(`${FIXTURES}/markers.txt`, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("+kubebuilder:rbac:"))
    .map(parseControllerGenMarker);
}

function rule(partial: Partial<RbacRule>): RbacRule {
  return {
    groups: [],
    resources: [],
    resourceNames: [],
    verbs: [],
    urls: [],
    namespace: "",
    roleName: "",
    ...partial,
  };
}

describe("generateRoles", () => {
  it("reproduces controller-gen's golden role.yaml as objects", () => {
    const markers = fixtureMarkers();
    expect(markers).toHaveLength(41);
    const expected = parseAllDocuments(readFileSync(`${FIXTURES}/role.yaml`, "utf8")).map((d) =>
      d.toJS(),
    );
    expect(generateRoles(markers, "manager-role")).toEqual(expected);
  });

  it("orders ClusterRoles before Roles, then by namespace and name", () => {
    const roles = generateRoles(
      [
        rule({ groups: ["a"], resources: ["x"], verbs: ["get"], namespace: "b", roleName: "z" }),
        rule({ groups: ["a"], resources: ["x"], verbs: ["get"], namespace: "b" }),
        rule({ groups: ["a"], resources: ["x"], verbs: ["get"], namespace: "a" }),
        rule({ groups: ["a"], resources: ["x"], verbs: ["get"], roleName: "aggregated" }),
      ],
      "manager-role",
    );
    expect(
      roles.map((r) => [
        r.kind,
        r.metadata.name,
        "namespace" in r.metadata ? r.metadata.namespace : "",
      ]),
    ).toEqual([
      ["ClusterRole", "aggregated", ""],
      ["ClusterRole", "manager-role", ""],
      ["Role", "manager-role", "a"],
      ["Role", "manager-role", "b"],
      ["Role", "z", "b"],
    ]);
  });

  it("still returns the default ClusterRole, without rules, when there are no markers", () => {
    expect(generateRoles([], "manager-role")).toEqual([
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: "manager-role" },
        rules: [],
      },
    ]);
  });
});

describe("splitPerResource", () => {
  it("gives one rule per resource and keeps a URL rule whole", () => {
    expect(
      splitPerResource(rule({ groups: ["apps"], resources: ["a", "b"], verbs: ["get"] })).map(
        (r) => r.resources,
      ),
    ).toEqual([["a"], ["b"]]);
    expect(splitPerResource(rule({ urls: ["/a", "/b"], verbs: ["get"] }))).toEqual([
      { groups: [], resources: [], resourceNames: [], urls: ["/a", "/b"], verbs: ["get"] },
    ]);
  });
});

describe("normalizeRules", () => {
  const lists = (p: Partial<RbacRule>) => splitPerResource(rule(p));

  it("unions, dedups and sorts the verbs of rules with the same key", () => {
    expect(
      normalizeRules([
        ...lists({ groups: ["apps"], resources: ["deployments"], verbs: ["watch", "get"] }),
        ...lists({ groups: ["apps"], resources: ["deployments"], verbs: ["get", "create", "get"] }),
      ]),
    ).toEqual([
      { apiGroups: ["apps"], resources: ["deployments"], verbs: ["create", "get", "watch"] },
    ]);
  });

  it("collapses verbs containing * after merging, so get;* does not merge with *", () => {
    expect(
      normalizeRules([
        ...lists({ groups: ["a"], resources: ["x"], verbs: ["get", "*"] }),
        ...lists({ groups: ["a"], resources: ["y"], verbs: ["*"] }),
      ]),
    ).toEqual([
      { apiGroups: ["a"], resources: ["x"], verbs: ["*"] },
      { apiGroups: ["a"], resources: ["y"], verbs: ["*"] },
    ]);
  });

  it("rewrites core to the empty group and sorts it before named groups", () => {
    expect(
      normalizeRules([
        ...lists({ groups: ["apps"], resources: ["deployments"], verbs: ["get"] }),
        ...lists({ groups: ["core"], resources: ["pods"], verbs: ["list"] }),
        ...lists({ urls: ["/metrics"], verbs: ["get"] }),
      ]),
    ).toEqual([
      { nonResourceURLs: ["/metrics"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
      { apiGroups: ["apps"], resources: ["deployments"], verbs: ["get"] },
    ]);
  });

  it("merges resources before groups", () => {
    // a/x get, a/y get, b/x get: resources merge first (a: x&y), so b/x stays on its own.
    expect(
      normalizeRules([
        ...lists({ groups: ["a"], resources: ["x", "y"], verbs: ["get"] }),
        ...lists({ groups: ["b"], resources: ["x"], verbs: ["get"] }),
      ]),
    ).toEqual([
      { apiGroups: ["a"], resources: ["x", "y"], verbs: ["get"] },
      { apiGroups: ["b"], resources: ["x"], verbs: ["get"] },
    ]);
  });

  it("keeps resourceNames rules apart from unrestricted ones", () => {
    expect(
      normalizeRules([
        ...lists({ groups: [""], resources: ["configmaps"], verbs: ["get"] }),
        ...lists({
          groups: [""],
          resources: ["configmaps"],
          resourceNames: ["b", "a"],
          verbs: ["get"],
        }),
      ]),
    ).toEqual([
      { apiGroups: [""], resources: ["configmaps"], verbs: ["get"] },
      { apiGroups: [""], resourceNames: ["a", "b"], resources: ["configmaps"], verbs: ["get"] },
    ]);
  });

  it("unions verbs when two merged rules end with the same key instead of dropping one", () => {
    expect(
      normalizeRules([
        ...lists({ groups: ["a"], resources: ["r"], verbs: ["get"] }),
        ...lists({ groups: ["b"], resources: ["r"], verbs: ["get"] }),
        ...lists({ groups: ["a", "b"], resources: ["r"], verbs: ["list"] }),
      ]),
    ).toEqual([{ apiGroups: ["a", "b"], resources: ["r"], verbs: ["get", "list"] }]);
  });

  it("sorts by UTF-8 bytes as Go does, not by UTF-16 code units", () => {
    // U+FF21 (one UTF-16 unit) sorts after U+1F600 (a surrogate pair) in UTF-16 but before in UTF-8.
    const rules = normalizeRules([
      ...lists({ groups: ["\u{1F600}"], resources: ["x"], verbs: ["get"] }),
      ...lists({ groups: ["\uFF21"], resources: ["x"], verbs: ["list"] }),
    ]);
    expect(rules.map((r) => r.apiGroups)).toEqual([["\uFF21"], ["\u{1F600}"]]);
  });
});
