/**
 * kube's Covers as the RBAC authorizer answers it (`uncovered`): rules broken down to one verb,
 * group, resource and name, each compared with the owner's rules by the authorizer's own matching.
 */
import { describe, expect, it } from "vitest";
import { type PolicyRule, uncovered } from "../src/auth/rbac.js";

describe("covers", () => {
  const rule = (r: PolicyRule) => r;
  it("breaks rules down and reports each uncovered part", () => {
    const owner = [
      rule({ verbs: ["get", "list"], apiGroups: [""], resources: ["pods", "pods/log"] }),
      rule({
        verbs: ["*"],
        apiGroups: ["apps"],
        resources: ["deployments"],
        resourceNames: ["web"],
      }),
      rule({ verbs: ["get"], nonResourceURLs: ["/healthz/*"] }),
    ];
    expect(
      uncovered(owner, [
        { verbs: ["get", "watch"], apiGroups: [""], resources: ["pods/log", "pods/exec"] },
        {
          verbs: ["update"],
          apiGroups: ["apps"],
          resources: ["deployments"],
          resourceNames: ["web", "db"],
        },
        { verbs: ["update"], apiGroups: ["apps"], resources: ["deployments"] },
        { verbs: ["get", "post"], nonResourceURLs: ["/healthz/etcd", "/healthz"] },
      ]),
    ).toEqual([
      { verbs: ["watch"], apiGroups: [""], resources: ["pods/log"] },
      { verbs: ["get"], apiGroups: [""], resources: ["pods/exec"] },
      { verbs: ["watch"], apiGroups: [""], resources: ["pods/exec"] },
      { verbs: ["update"], apiGroups: ["apps"], resources: ["deployments"], resourceNames: ["db"] },
      { verbs: ["update"], apiGroups: ["apps"], resources: ["deployments"] },
      { verbs: ["post"], nonResourceURLs: ["/healthz/etcd"] },
      { verbs: ["get"], nonResourceURLs: ["/healthz"] },
      { verbs: ["post"], nonResourceURLs: ["/healthz"] },
    ]);
  });

  it("covers a wildcard only with a wildcard, and an empty name list with one", () => {
    const star = [rule({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] })];
    expect(uncovered(star, [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }])).toEqual([]);
    const named = [
      rule({ verbs: ["get"], apiGroups: [""], resources: ["secrets"], resourceNames: [""] }),
    ];
    expect(
      uncovered(named, [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }]),
    ).toHaveLength(1);
    const exact = [rule({ verbs: ["get", "list"], apiGroups: [""], resources: ["secrets"] })];
    expect(uncovered(exact, [{ verbs: ["*"], apiGroups: [""], resources: ["secrets"] }])).toEqual([
      { verbs: ["*"], apiGroups: [""], resources: ["secrets"] },
    ]);
  });
});
