/**
 * ValidatingAdmissionPolicy as kube-apiserver 1.32 enforces it, driven through the real kubectl:
 * denials with kube's message and status, Warn as a `Warning:`, params from a ConfigMap, binding
 * namespace selectors, match conditions, variables, failure policies and the checks on the policy
 * objects themselves. Each test scopes its policy to its own namespace: policies are cluster-wide.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
});
afterAll(async () => {
  await env?.stop();
});

async function namespace(name: string, labels: Record<string, string> = {}): Promise<string> {
  const r = await kubectl(env, ["create", "namespace", name]);
  expect(r.code, r.stderr).toBe(0);
  const pairs = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
  if (pairs.length) {
    const l = await kubectl(env, ["label", "namespace", name, ...pairs]);
    expect(l.code, l.stderr).toBe(0);
  }
  return name;
}

async function apply(...objects: object[]) {
  const r = await kubectl(
    env,
    ["apply", "-f", "-"],
    JSON.stringify({ apiVersion: "v1", kind: "List", items: objects }),
  );
  expect(r.code, r.stderr).toBe(0);
}

const deployments = {
  apiGroups: ["apps"],
  apiVersions: ["v1"],
  operations: ["CREATE", "UPDATE"],
  resources: ["deployments"],
};

/** A policy on Deployments in namespace `ns` only. */
function policy(name: string, ns: string, spec: object) {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata: { name },
    spec: {
      matchConstraints: {
        resourceRules: [deployments],
        namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
      },
      ...spec,
    },
  };
}

function binding(name: string, policyName: string, spec: object = {}) {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name },
    spec: { policyName, validationActions: ["Deny"], ...spec },
  };
}

const maxReplicas = { validations: [{ expression: "object.spec.replicas <= 5" }] };

describe("denials", () => {
  it("denies with kube's message and 422 Invalid, and lets valid objects through", async () => {
    const ns = await namespace("vap-deny");
    await apply(policy("max-replicas", ns, maxReplicas), binding("max-replicas", "max-replicas"));
    const denied = await kubectl(env, [
      "-n",
      ns,
      "create",
      "deployment",
      "web",
      "--image=nginx",
      "--replicas=6",
    ]);
    expect(denied.code).toBe(1);
    expect(denied.stderr.trim()).toBe(
      `error: failed to create deployment: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: failed expression: object.spec.replicas <= 5`,
    );
    const ok = await kubectl(env, ["-n", ns, "create", "deployment", "web", "--image=nginx"]);
    expect(ok.code, ok.stderr).toBe(0);
    // An update is checked too; kubectl reports the 422 as kube's Invalid.
    const scaled = await kubectl(env, ["-n", ns, "scale", "deployment", "web", "--replicas=9"]);
    expect(scaled.code).toBe(0);
    const patched = await kubectl(env, [
      "-n",
      ns,
      "patch",
      "deployment",
      "web",
      "-p",
      '{"spec":{"replicas":7}}',
    ]);
    expect(patched.code).toBe(1);
    expect(patched.stderr.trim()).toBe(
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: failed expression: object.spec.replicas <= 5`,
    );
    const raw = await api(env, "POST", `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { generateName: "gen-" },
      spec: {
        replicas: 8,
        selector: { matchLabels: { a: "b" } },
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    const cause =
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: failed expression: object.spec.replicas <= 5";
    // The name is generated before validating admission (BeforeCreate), so the denial names it.
    const name = raw.body.details?.name as string;
    expect(name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(raw.status).toBe(422);
    expect(raw.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      reason: "Invalid",
      code: 422,
      message: `deployments.apps "${name}" is forbidden: ${cause}`,
      details: { name, group: "apps", kind: "deployments", causes: [{ message: cause }] },
    });
  });

  it("answers with the validation's reason and its message or messageExpression", async () => {
    const ns = await namespace("vap-reason");
    await apply(
      policy("reasons", ns, {
        validations: [
          {
            expression: "object.spec.replicas != 3",
            reason: "Forbidden",
            messageExpression:
              "'three replicas in ' + namespaceObject.metadata.name + ' is unlucky'",
          },
          { expression: "object.spec.replicas != 4", message: "  four is not allowed  " },
        ],
      }),
      binding("reasons", "reasons"),
    );
    const three = await kubectl(env, [
      "-n",
      ns,
      "create",
      "deployment",
      "a",
      "--image=x",
      "--replicas=3",
    ]);
    expect(three.stderr.trim()).toBe(
      `error: failed to create deployment: deployments.apps "a" is forbidden: ValidatingAdmissionPolicy 'reasons' with binding 'reasons' denied request: three replicas in ${ns} is unlucky`,
    );
    const raw = await api(env, "POST", `/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`, {
      metadata: { name: "b" },
      spec: {
        replicas: 3,
        selector: { matchLabels: { a: "b" } },
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    expect([raw.status, raw.body.reason]).toEqual([403, "Forbidden"]);
    const four = await kubectl(env, [
      "-n",
      ns,
      "create",
      "deployment",
      "a",
      "--image=x",
      "--replicas=4",
    ]);
    expect(four.stderr.trim()).toBe(
      `error: failed to create deployment: deployments.apps "a" is forbidden: ValidatingAdmissionPolicy 'reasons' with binding 'reasons' denied request: four is not allowed`,
    );
  });

  it("enforces nothing without both a policy and a binding naming it", async () => {
    const ns = await namespace("vap-unbound");
    await apply(
      policy("unbound", ns, { validations: [{ expression: "false" }] }),
      binding("ghost", "no-such-policy"),
    );
    const r = await kubectl(env, ["-n", ns, "create", "deployment", "free", "--image=x"]);
    expect(r.code, r.stderr).toBe(0);
    await apply(binding("unbound", "unbound"));
    const denied = await kubectl(env, ["-n", ns, "create", "deployment", "bound", "--image=x"]);
    expect(denied.stderr.trim()).toBe(
      `error: failed to create deployment: deployments.apps "bound" is forbidden: ValidatingAdmissionPolicy 'unbound' with binding 'unbound' denied request: failed expression: false`,
    );
  });

  it("warns instead of denying under validationActions Warn", async () => {
    const ns = await namespace("vap-warn");
    await apply(
      policy("warn-replicas", ns, maxReplicas),
      binding("warn-replicas", "warn-replicas", { validationActions: ["Warn"] }),
    );
    const r = await kubectl(env, [
      "-n",
      ns,
      "create",
      "deployment",
      "w",
      "--image=x",
      "--replicas=7",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe(
      "Warning: Validation failed for ValidatingAdmissionPolicy 'warn-replicas' with binding 'warn-replicas': failed expression: object.spec.replicas <= 5",
    );
    expect(r.stdout).toBe("deployment.apps/w created");
  });
});

describe("params, selectors, conditions, variables", () => {
  it("reads params from a ConfigMap named by paramRef, denying while it is missing", async () => {
    const ns = await namespace("vap-params");
    await apply(
      policy("param-replicas", ns, {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        validations: [
          {
            expression: "object.spec.replicas <= int(params.data.maxReplicas)",
            messageExpression:
              "'replicas ' + string(object.spec.replicas) + ' above ' + params.data.maxReplicas",
          },
        ],
      }),
      binding("param-replicas", "param-replicas", {
        paramRef: { name: "limits", namespace: ns, parameterNotFoundAction: "Deny" },
      }),
    );
    const missing = await kubectl(env, ["-n", ns, "create", "deployment", "p", "--image=x"]);
    expect(missing.stderr.trim()).toBe(
      "error: failed to create deployment: deployments.apps \"p\" is forbidden: ValidatingAdmissionPolicy 'param-replicas' with binding 'param-replicas' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    const cm = await kubectl(env, [
      "-n",
      ns,
      "create",
      "configmap",
      "limits",
      "--from-literal=maxReplicas=2",
    ]);
    expect(cm.code, cm.stderr).toBe(0);
    const ok = await kubectl(env, [
      "-n",
      ns,
      "create",
      "deployment",
      "p",
      "--image=x",
      "--replicas=2",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const over = await kubectl(env, [
      "-n",
      ns,
      "create",
      "deployment",
      "q",
      "--image=x",
      "--replicas=3",
    ]);
    expect(over.stderr.trim()).toBe(
      "error: failed to create deployment: deployments.apps \"q\" is forbidden: ValidatingAdmissionPolicy 'param-replicas' with binding 'param-replicas' denied request: replicas 3 above 2",
    );
  });

  it("applies a binding only in the namespaces its matchResources select", async () => {
    const prod = await namespace("vap-prod", { env: "prod" });
    const dev = await namespace("vap-dev", { env: "dev" });
    await apply(
      {
        ...policy("prod-only", prod, maxReplicas),
        spec: {
          ...maxReplicas,
          matchConstraints: {
            resourceRules: [deployments],
            namespaceSelector: {
              matchExpressions: [{ key: "env", operator: "In", values: ["prod", "dev"] }],
            },
          },
        },
      },
      binding("prod-only", "prod-only", {
        matchResources: { namespaceSelector: { matchLabels: { env: "prod" } } },
      }),
    );
    const inDev = await kubectl(env, [
      "-n",
      dev,
      "create",
      "deployment",
      "d",
      "--image=x",
      "--replicas=6",
    ]);
    expect(inDev.code, inDev.stderr).toBe(0);
    const inProd = await kubectl(env, [
      "-n",
      prod,
      "create",
      "deployment",
      "d",
      "--image=x",
      "--replicas=6",
    ]);
    expect(inProd.code).toBe(1);
    expect(inProd.stderr).toContain(
      "ValidatingAdmissionPolicy 'prod-only' with binding 'prod-only' denied request",
    );
  });

  it("skips objects its matchConditions exclude and evaluates variables", async () => {
    const ns = await namespace("vap-conditions");
    await apply(
      policy("conditions", ns, {
        matchConditions: [
          {
            name: "not-exempt",
            expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)",
          },
        ],
        variables: [{ name: "replicas", expression: "object.spec.replicas" }],
        validations: [
          {
            expression: "variables.replicas <= 1",
            messageExpression: "'too many: ' + string(variables.replicas)",
          },
        ],
      }),
      binding("conditions", "conditions"),
    );
    const plain = await kubectl(env, [
      "-n",
      ns,
      "create",
      "deployment",
      "c",
      "--image=x",
      "--replicas=2",
    ]);
    expect(plain.stderr).toContain("denied request: too many: 2");
    const exempt = await apply({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "c", namespace: ns, labels: { exempt: "yes" } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { a: "b" } },
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    expect(exempt).toBeUndefined();
  });
});

describe("failure policy", () => {
  const failing = (name: string, ns: string, failurePolicy: string) =>
    policy(name, ns, {
      failurePolicy,
      validations: [{ expression: "object.spec.template.metadata.annotations['team'] != ''" }],
    });

  it("denies on an evaluation error under Fail and admits under Ignore", async () => {
    const nsFail = await namespace("vap-fail");
    const nsIgnore = await namespace("vap-ignore");
    await apply(
      failing("fail-policy", nsFail, "Fail"),
      binding("fail-policy", "fail-policy"),
      failing("ignore-policy", nsIgnore, "Ignore"),
      binding("ignore-policy", "ignore-policy"),
    );
    const fail = await kubectl(env, ["-n", nsFail, "create", "deployment", "f", "--image=x"]);
    expect(fail.stderr.trim()).toBe(
      "error: failed to create deployment: deployments.apps \"f\" is forbidden: ValidatingAdmissionPolicy 'fail-policy' with binding 'fail-policy' denied request: expression 'object.spec.template.metadata.annotations['team'] != ''' resulted in error: no such key: annotations",
    );
    const ignore = await kubectl(env, ["-n", nsIgnore, "create", "deployment", "f", "--image=x"]);
    expect(ignore.code, ignore.stderr).toBe(0);
  });

  it("fails closed on an unknown paramKind under Fail", async () => {
    const ns = await namespace("vap-unknown-kind");
    await apply(
      policy("unknown-kind", ns, {
        paramKind: { apiVersion: "example.com/v1", kind: "Limits" },
        validations: [{ expression: "true" }],
      }),
      binding("unknown-kind", "unknown-kind", { paramRef: { name: "x" } }),
    );
    const r = await kubectl(env, ["-n", ns, "create", "deployment", "u", "--image=x"]);
    expect(r.stderr.trim()).toBe(
      "error: failed to create deployment: deployments.apps \"u\" is forbidden: ValidatingAdmissionPolicy 'unknown-kind' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limits'",
    );
  });
});

describe("policy objects", () => {
  it("refuses expressions that do not compile, with kube's field errors", async () => {
    const r = await kubectl(
      env,
      ["apply", "-f", "-"],
      JSON.stringify(
        policy("bad", "nowhere", { validations: [{ expression: "object.spec.replicas <=" }] }),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      [
        'The ValidatingAdmissionPolicy "bad" is invalid: spec.validations[0].expression: Invalid value: "object.spec.replicas <=": compilation failed: ERROR: <input>:1:24: Syntax error: Unexpected token: EOF',
        " | object.spec.replicas <=",
        " | .......................^",
      ].join("\n"),
    );
    const noParams = await kubectl(
      env,
      ["apply", "-f", "-"],
      JSON.stringify(
        policy("no-params", "nowhere", { validations: [{ expression: "params.x == 1" }] }),
      ),
    );
    expect(noParams.stderr).toContain("undeclared reference to 'params'");
    // request is typed as kube declares it: a misspelt field does not compile.
    const typo = await kubectl(
      env,
      ["apply", "-f", "-"],
      JSON.stringify(
        policy("request-typo", "nowhere", {
          validations: [{ expression: "request.namespace != '' && request.operaton == 'CREATE'" }],
        }),
      ),
    );
    expect(typo.stderr.trim()).toBe(
      [
        `The ValidatingAdmissionPolicy "request-typo" is invalid: spec.validations[0].expression: Invalid value: "request.namespace != '' && request.operaton == 'CREATE'": compilation failed: ERROR: <input>:1:35: undefined field 'operaton'`,
        " | request.namespace != '' && request.operaton == 'CREATE'",
        " | ..................................^",
      ].join("\n"),
    );
  });

  it("defaults policies and bindings as kube does and validates bindings", async () => {
    await apply(
      policy("defaults", "nowhere", maxReplicas),
      binding("defaults", "defaults", { paramRef: { name: "p" } }),
    );
    const p = await api(
      env,
      "GET",
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/defaults",
    );
    expect(p.body.spec.failurePolicy).toBe("Fail");
    expect(p.body.spec.matchConstraints).toMatchObject({
      matchPolicy: "Equivalent",
      objectSelector: {},
      resourceRules: [{ scope: "*" }],
    });
    const b = await api(
      env,
      "GET",
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/defaults",
    );
    expect(b.body.spec.paramRef).toEqual({ name: "p", parameterNotFoundAction: "Deny" });
    const both = await kubectl(
      env,
      ["apply", "-f", "-"],
      JSON.stringify(binding("both", "defaults", { validationActions: ["Deny", "Warn"] })),
    );
    expect(both.stderr.trim()).toBe(
      'The ValidatingAdmissionPolicyBinding "both" is invalid: spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    );
  });
});

describe("authorizer", () => {
  let rbac: TestEnv;
  beforeAll(async () => {
    rbac = await startTestEnv({ auth: "rbac" });
  });
  afterAll(async () => {
    await rbac?.stop();
  });

  it("answers authorizer checks with the server's RBAC", async () => {
    const run = async (args: string[], input?: string) => {
      const r = await kubectl(rbac, args, input);
      expect(r.code, r.stderr).toBe(0);
    };
    await run(["create", "namespace", "vap-authz"]);
    await run(["-n", "vap-authz", "create", "serviceaccount", "deployer"]);
    const check =
      "authorizer.serviceAccount(namespaceObject.metadata.name, 'deployer').group('apps').resource('deployments').namespace(namespaceObject.metadata.name).check('create')";
    await run(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "List",
        items: [
          policy("deployer-may-create", "vap-authz", {
            validations: [
              {
                expression: `${check}.allowed() && authorizer.requestResource.check('create').allowed()`,
                messageExpression: "'deployer may not create deployments here'",
              },
            ],
          }),
          binding("deployer-may-create", "deployer-may-create"),
        ],
      }),
    );
    const denied = await kubectl(rbac, [
      "-n",
      "vap-authz",
      "create",
      "deployment",
      "a",
      "--image=x",
    ]);
    expect(denied.stderr.trim()).toBe(
      "error: failed to create deployment: deployments.apps \"a\" is forbidden: ValidatingAdmissionPolicy 'deployer-may-create' with binding 'deployer-may-create' denied request: deployer may not create deployments here",
    );
    await run([
      "-n",
      "vap-authz",
      "create",
      "role",
      "deploy",
      "--verb=create",
      "--resource=deployments.apps",
    ]);
    await run([
      "-n",
      "vap-authz",
      "create",
      "rolebinding",
      "deploy",
      "--role=deploy",
      "--serviceaccount=vap-authz:deployer",
    ]);
    await run(["-n", "vap-authz", "create", "deployment", "a", "--image=x"]);
  });

  it("does not count a policy's authorizer check as the checked identity's refused request", async () => {
    // The account a policy asks about is an operator under test: its own requests were never
    // refused, so its `forbidden` signal must stay quiet.
    const operator = await rbac.serviceAccount({ namespace: "vap-quiet", name: "op" });
    const check = `authorizer.serviceAccount('vap-quiet', 'op').group('apps').resource('deployments').namespace('vap-quiet').check('create')`;
    const applied = await kubectl(
      rbac,
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "List",
        items: [
          policy("op-may-create", "vap-quiet", {
            validations: [{ expression: `${check}.allowed()`, message: "op may not create" }],
          }),
          binding("op-may-create", "op-may-create"),
        ],
      }),
    );
    expect(applied.code, applied.stderr).toBe(0);
    const denied = await kubectl(rbac, [
      "-n",
      "vap-quiet",
      "create",
      "deployment",
      "a",
      "--image=x",
    ]);
    expect(denied.stderr).toContain("denied request: op may not create");
    expect(operator.forbiddenRequests).toEqual([]);
    expect(operator.forbidden.aborted).toBe(false);
  });
});

describe("operations and matching", () => {
  it("checks deletes against oldObject, naming the object Unknown as kube does", async () => {
    const ns = await namespace("vap-delete");
    await apply(
      {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingAdmissionPolicy",
        metadata: { name: "keep-protected" },
        spec: {
          matchConstraints: {
            resourceRules: [
              {
                apiGroups: [""],
                apiVersions: ["v1"],
                operations: ["DELETE"],
                resources: ["configmaps"],
              },
            ],
            namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
            // Excluded by name: this one may go.
            excludeResourceRules: [
              {
                apiGroups: [""],
                apiVersions: ["v1"],
                operations: ["DELETE"],
                resources: ["configmaps"],
                resourceNames: ["disposable"],
              },
            ],
          },
          validations: [
            {
              expression: "object == null && request.operation == 'DELETE' && false",
              messageExpression: "oldObject.metadata.name + ' is protected'",
            },
          ],
        },
      },
      binding("keep-protected", "keep-protected"),
    );
    for (const name of ["kept", "disposable"]) {
      const r = await kubectl(env, ["-n", ns, "create", "configmap", name]);
      expect(r.code, r.stderr).toBe(0);
    }
    const denied = await kubectl(env, ["-n", ns, "delete", "configmap", "kept"]);
    expect(denied.code).toBe(1);
    expect(denied.stderr.trim()).toBe(
      `The configmaps "Unknown" is invalid: : ValidatingAdmissionPolicy 'keep-protected' with binding 'keep-protected' denied request: kept is protected`,
    );
    const ok = await kubectl(env, ["-n", ns, "delete", "configmap", "disposable"]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("evaluates once per param a selector selects, and Audit alone changes nothing", async () => {
    const ns = await namespace("vap-selector");
    await apply(
      policy("per-param", ns, {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        validations: [
          {
            expression: "!(params.data.forbidden in object.metadata.labels)",
            messageExpression: "'label ' + params.data.forbidden + ' is forbidden'",
          },
        ],
      }),
      binding("per-param", "per-param", {
        paramRef: {
          selector: { matchLabels: { rule: "labels" } },
          parameterNotFoundAction: "Allow",
        },
      }),
      binding("per-param-audit", "per-param", {
        validationActions: ["Audit"],
        paramRef: { selector: {}, parameterNotFoundAction: "Deny" },
      }),
    );
    const labelled = (name: string) =>
      kubectl(env, ["-n", ns, "create", "deployment", name, "--image=x"]).then(async (r) => {
        expect(r.code, r.stderr).toBe(0);
        return kubectl(env, ["-n", ns, "label", "deployment", name, "blue=1", "green=1"]);
      });
    // No param selected: Allow skips the binding.
    expect((await labelled("none")).code).toBe(0);
    for (const [name, forbidden] of [
      ["no-blue", "blue"],
      ["no-green", "green"],
    ]) {
      const r = await kubectl(env, [
        "-n",
        ns,
        "create",
        "configmap",
        name!,
        `--from-literal=forbidden=${forbidden}`,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const l = await kubectl(env, ["-n", ns, "label", "configmap", name!, "rule=labels"]);
      expect(l.code, l.stderr).toBe(0);
    }
    const r = await labelled("both");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `The deployments "both" is invalid: : ValidatingAdmissionPolicy 'per-param' with binding 'per-param' denied request: label blue is forbidden`,
    );
  });

  it("matches an equivalent version under matchPolicy Equivalent, converting the object", async () => {
    const ns = await namespace("vap-equivalent");
    const hpaPolicy = (name: string, matchPolicy: string) => ({
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name },
      spec: {
        matchConstraints: {
          matchPolicy,
          resourceRules: [
            {
              apiGroups: ["autoscaling"],
              apiVersions: ["v1"],
              operations: ["CREATE"],
              resources: ["horizontalpodautoscalers"],
            },
          ],
          namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
        },
        validations: [
          {
            expression: "object.spec.maxReplicas <= 3",
            messageExpression:
              "object.apiVersion + ' ' + request.kind.version + ' from ' + request.requestKind.version",
          },
        ],
      },
    });
    await apply(hpaPolicy("hpa-exact", "Exact"), binding("hpa-exact", "hpa-exact"));
    const hpa = (name: string) => ({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name, namespace: ns },
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
        maxReplicas: 5,
      },
    });
    // An autoscaling/v2 request does not match a v1 rule exactly.
    const exact = await kubectl(env, ["create", "-f", "-"], JSON.stringify(hpa("exact")));
    expect(exact.code, exact.stderr).toBe(0);
    await apply(
      hpaPolicy("hpa-equivalent", "Equivalent"),
      binding("hpa-equivalent", "hpa-equivalent"),
    );
    const equivalent = await kubectl(env, ["create", "-f", "-"], JSON.stringify(hpa("equivalent")));
    expect(equivalent.stderr.trim()).toBe(
      `The horizontalpodautoscalers "equivalent" is invalid: : ValidatingAdmissionPolicy 'hpa-equivalent' with binding 'hpa-equivalent' denied request: autoscaling/v1 v1 from v2`,
    );
  });
});

describe("status", () => {
  it("reports the observed generation and type-checking warnings, as kube-controller-manager does", async () => {
    await apply(
      policy("typo", "nowhere", {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        validations: [
          { expression: "object.spec.replicass <= 5", messageExpression: "params.data.msg" },
          {
            expression: "object.spec.replicas <= int(params.data.max)",
            messageExpression: "params.dta",
          },
        ],
      }),
    );
    const waited = await kubectl(env, [
      "wait",
      "--for=jsonpath={.status.observedGeneration}=1",
      "validatingadmissionpolicy/typo",
      "--timeout=20s",
    ]);
    expect(waited.code, waited.stderr).toBe(0);
    const p = await api(
      env,
      "GET",
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/typo",
    );
    expect(p.body.status).toEqual({
      observedGeneration: 1,
      typeChecking: {
        expressionWarnings: [
          {
            fieldRef: "spec.validations[0].expression",
            warning:
              "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'\n | object.spec.replicass <= 5\n | ...........^\n",
          },
          {
            fieldRef: "spec.validations[1].messageExpression",
            warning:
              "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'dta'\n | params.dta\n | ......^\n",
          },
        ],
      },
    });
    expect(p.body.metadata.managedFields).toContainEqual(
      expect.objectContaining({
        manager: "validatingadmissionpolicy-status-controller",
        subresource: "status",
      }),
    );
    // Fixed in a new generation: no warnings left.
    await apply(
      policy("typo", "nowhere", {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        validations: [{ expression: "object.spec.replicas <= int(params.data.max)" }],
      }),
    );
    const again = await kubectl(env, [
      "wait",
      "--for=jsonpath={.status.observedGeneration}=2",
      "validatingadmissionpolicy/typo",
      "--timeout=20s",
    ]);
    expect(again.code, again.stderr).toBe(0);
    const fixed = await api(
      env,
      "GET",
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/typo",
    );
    expect(fixed.body.status).toEqual({ observedGeneration: 2, typeChecking: {} });
  });
});

describe("controllers", () => {
  let sim: TestEnv;
  beforeAll(async () => {
    sim = await startTestEnv({ simulate: true });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it("holds the simulated controllers' pod creates to policies, as kube-controller-manager's", async () => {
    const ns = "vap-controllers";
    expect((await kubectl(sim, ["create", "namespace", ns])).code).toBe(0);
    const r = await kubectl(
      sim,
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "List",
        items: [
          {
            ...policy("team-label", ns, {}),
            spec: {
              matchConstraints: {
                resourceRules: [
                  {
                    apiGroups: [""],
                    apiVersions: ["v1"],
                    operations: ["CREATE"],
                    resources: ["pods"],
                  },
                ],
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
              },
              validations: [
                {
                  expression: "has(object.metadata.labels) && 'team' in object.metadata.labels",
                  message: "pods need a team label",
                },
              ],
            },
          },
          binding("team-label", "team-label"),
        ],
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    const created = await kubectl(sim, ["-n", ns, "create", "deployment", "web", "--image=nginx"]);
    expect(created.code, created.stderr).toBe(0);
    await eventually(async () => {
      const rs = await kubectl(sim, ["-n", ns, "get", "rs", "-o", "json"]);
      const [set] = JSON.parse(rs.stdout).items;
      const failure = set?.status?.conditions?.find(
        (c: { type: string }) => c.type === "ReplicaFailure",
      );
      expect(failure?.message).toMatch(
        /^pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: ValidatingAdmissionPolicy 'team-label' with binding 'team-label' denied request: pods need a team label$/,
      );
    });
    const pods = await kubectl(sim, ["-n", ns, "get", "pods", "-o", "name"]);
    expect(pods.stdout).toBe("");
  });
});
