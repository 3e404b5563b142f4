/**
 * The @webhook and @webhookconfiguration markers one by one: controller-gen's defaults and
 * normalisations, opgen's selector arguments and the raw patch, and every refusal (controller-gen's
 * and kube-apiserver's) as one line at the marker.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runMarkers } from "../../src/commands/markers.js";
import { markerRegistry } from "../../src/generators/markers.js";
import { generateWebhooks } from "../../src/generators/webhook/index.js";
import { LineMap, parseJSDoc, parseMarkers } from "../../src/markers/index.js";
import { formatDiagnostic } from "../../src/source/diagnostics.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "opgen-webhook-markers-"));
  mkdirSync(join(dir, "src"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const BASE =
  "path=/mutate-demo-example-com-v1-app mutating=true failurePolicy=fail sideEffects=None groups=demo.example.com resources=apps verbs=create;update versions=v1 name=mapp-v1.kb.io admissionReviewVersions=v1";

/** Generates from one file holding one JSDoc block per marker text. */
async function run(...markers: string[]) {
  const text = markers.map((m, i) => `/**\n * ${m}\n */\nexport class C${i} {}\n`).join("\n");
  writeFileSync(join(dir, "src/hooks.ts"), text);
  const result = await generateWebhooks({ projectDir: dir });
  return { ...result, errors: result.diagnostics.map(formatDiagnostic) };
}

/** The only webhook generated from `marker`. */
async function webhookOf(marker: string) {
  const r = await run(marker);
  expect(r.errors).toEqual([]);
  return r.configurations[0]!.webhooks[0]!;
}

const set = (marker: string, key: string, value: string | undefined) => {
  const without = marker.replace(new RegExp(`\\b${key}=\\S+`), "").replace(/ {2,}/g, " ");
  return value === undefined ? without.trim() : `${without.trim()} ${key}=${value}`;
};

describe("@webhook: controller-gen's defaults and normalisations", () => {
  it("builds one rule, the webhook Service, and leaves the API server's defaults out", async () => {
    expect(await webhookOf(`@webhook ${BASE}`)).toEqual({
      admissionReviewVersions: ["v1"],
      clientConfig: {
        service: {
          name: "webhook-service",
          namespace: "system",
          path: "/mutate-demo-example-com-v1-app",
        },
      },
      failurePolicy: "Fail",
      name: "mapp-v1.kb.io",
      rules: [
        {
          apiGroups: ["demo.example.com"],
          apiVersions: ["v1"],
          operations: ["CREATE", "UPDATE"],
          resources: ["apps"],
        },
      ],
      sideEffects: "None",
    });
  });

  it("normalises case as controller-gen does; core is the core group", async () => {
    let m = set(`@webhook ${BASE}`, "failurePolicy", "IGNORE");
    m = set(m, "verbs", "Create;delete;CONNECT");
    m = set(m, "groups", "core;apps");
    m = set(m, "sideEffects", "noneondryrun");
    const hook = await webhookOf(
      `${m} matchPolicy=exact reinvocationPolicy=ifneeded timeoutSeconds=5`,
    );
    expect(hook).toMatchObject({
      failurePolicy: "Ignore",
      matchPolicy: "Exact",
      reinvocationPolicy: "IfNeeded",
      sideEffects: "NoneOnDryRun",
      timeoutSeconds: 5,
      rules: [{ apiGroups: ["", "apps"], operations: ["CREATE", "DELETE", "CONNECT"] }],
    });
    const all = await webhookOf(set(`@webhook ${BASE}`, "verbs", "*"));
    expect(all.rules).toEqual([expect.objectContaining({ operations: ["*"] })]);
  });

  it('takes groups="" as the core group and ignores reinvocationPolicy on a validating webhook', async () => {
    let m = set(`@webhook ${BASE}`, "groups", '""');
    m = set(m, "mutating", "false");
    const hook = await webhookOf(`${m} reinvocationPolicy=Never`);
    expect(hook.rules).toEqual([expect.objectContaining({ apiGroups: [""] })]);
    expect(hook).not.toHaveProperty("reinvocationPolicy");
    const r = await run(m);
    expect(r.configurations.map((c) => c.kind)).toEqual(["ValidatingWebhookConfiguration"]);
  });

  it("serviceName, serviceNamespace and servicePort; url instead of path", async () => {
    const custom = await webhookOf(
      `@webhook ${BASE} serviceName=hooks serviceNamespace=ops servicePort=8443`,
    );
    expect(custom.clientConfig).toEqual({
      service: {
        name: "hooks",
        namespace: "ops",
        path: "/mutate-demo-example-com-v1-app",
        port: 8443,
      },
    });
    const external = await webhookOf(
      `${set(`@webhook ${BASE}`, "path", undefined)} url="https://hooks.example.com:9443/mutate"`,
    );
    expect(external.clientConfig).toEqual({ url: "https://hooks.example.com:9443/mutate" });
  });

  it("accepts the Kubebuilder spelling verbatim", async () => {
    const hook = await webhookOf(
      '@kubebuilder:webhook:path=/mutate--v1-pod,mutating=true,failurePolicy=fail,sideEffects=None,groups="",resources=pods,verbs=create;update,versions=v1,name=mpod-v1.kb.io,admissionReviewVersions=v1',
    );
    expect(hook).toMatchObject({
      name: "mpod-v1.kb.io",
      clientConfig: { service: { path: "/mutate--v1-pod" } },
    });
  });

  it("sorts webhooks by name, ties in source order, mutating before validating", async () => {
    const v = (name: string) => set(set(`@webhook ${BASE}`, "mutating", "false"), "name", name);
    const r = await run(v("b.x.io"), set(`@webhook ${BASE}`, "name", "z.x.io"), v("a.x.io"));
    expect(r.errors).toEqual([]);
    expect(r.configurations.map((c) => [c.kind, c.webhooks.map((w) => w.name)])).toEqual([
      ["MutatingWebhookConfiguration", ["z.x.io"]],
      ["ValidatingWebhookConfiguration", ["a.x.io", "b.x.io"]],
    ]);
  });

  it("@webhookconfiguration names the objects; the same name twice is fine", async () => {
    const r = await run(
      `@webhook ${BASE}`,
      "@webhookconfiguration mutating=true name=demo-mutating",
      "@kubebuilder:webhookconfiguration:mutating=true,name=demo-mutating",
    );
    expect(r.errors).toEqual([]);
    expect(r.configurations[0]!.metadata.name).toBe("demo-mutating");
  });

  it("a project without @webhook markers has no webhook file", async () => {
    const r = await run("@webhookconfiguration mutating=true name=unused");
    expect(r).toMatchObject({ files: [], found: false, errors: [] });
  });
});

describe("@webhook: selectors and the raw patch", () => {
  it("namespaceSelector and objectSelector take kubectl's selector syntax", async () => {
    const hook = await webhookOf(
      `@webhook ${BASE} namespaceSelector="env in (dev,prod),!skip,team=web" objectSelector="tier!=db"`,
    );
    expect(hook.namespaceSelector).toEqual({
      matchLabels: { team: "web" },
      matchExpressions: [
        { key: "env", operator: "In", values: ["dev", "prod"] },
        { key: "skip", operator: "DoesNotExist" },
      ],
    });
    expect(hook.objectSelector).toEqual({
      matchExpressions: [{ key: "tier", operator: "NotIn", values: ["db"] }],
    });
  });

  it("patch merges into the finished webhook (strategic merge, matchConditions by name)", async () => {
    const hook = await webhookOf(
      `@webhook ${BASE} patch=\`{"failurePolicy":"Ignore","matchConditions":[{"name":"not-system","expression":"!request.userInfo.username.startsWith('system:')"}]}\``,
    );
    expect(hook.failurePolicy).toBe("Ignore");
    expect(hook.matchConditions).toEqual([
      { name: "not-system", expression: "!request.userInfo.username.startsWith('system:')" },
    ]);
  });

  it("refuses a selector or patch that does not parse", async () => {
    const r = await run(
      `@webhook ${BASE} objectSelector="size>3"`,
      `@webhook ${set(BASE, "name", "b.kb.io")} patch=\`{"failurePolicy":\``,
    );
    expect(r.errors).toEqual([
      'src/hooks.ts:2:4: @webhook: objectSelector "size>3": size: a webhook\'s label selector has no > (only =, ==, !=, in, notin, exists and !exists)',
      expect.stringMatching(
        /^src\/hooks\.ts:7:4: @webhook: failed to apply patch: not JSON: .*; write the patch in backticks$/,
      ),
    ]);
  });
});

describe("@webhook: refusals, one line at the marker", () => {
  const cases: [string, string, string][] = [
    [
      "missing sideEffects",
      set(`@webhook ${BASE}`, "sideEffects", undefined),
      'missing argument "sideEffects" (a string)',
    ],
    [
      "empty sideEffects",
      set(`@webhook ${BASE}`, "sideEffects", '""'),
      "sideEffects is required for admissionregistration.k8s.io/v1 webhook configurations; write sideEffects=None (or NoneOnDryRun if the webhook skips its side effects on dry runs)",
    ],
    [
      "misspelt sideEffects",
      set(`@webhook ${BASE}`, "sideEffects", "Nne"),
      'sideEffects "Nne" is not None or NoneOnDryRun',
    ],
    [
      "sideEffects=Unknown",
      set(`@webhook ${BASE}`, "sideEffects", "Unknown"),
      "sideEffects=Unknown is not allowed in admissionregistration.k8s.io/v1 webhook configurations; write sideEffects=None or NoneOnDryRun and skip side effects on dry-run requests",
    ],
    [
      "matchPolicy",
      `@webhook ${BASE} matchPolicy=fuzzy`,
      'unknown value "fuzzy" for matchPolicy; use Exact or Equivalent',
    ],
    [
      "reinvocationPolicy",
      `@webhook ${BASE} reinvocationPolicy=always`,
      'unknown value "always" for reinvocationPolicy; use Never or IfNeeded',
    ],
    [
      "timeoutSeconds=0",
      `@webhook ${BASE} timeoutSeconds=0`,
      "timeoutSeconds=0: must be between 1 and 30 seconds (leave it out for the API server's default, 10)",
    ],
    [
      "empty admissionReviewVersions",
      set(`@webhook ${BASE}`, "admissionReviewVersions", ""),
      "admissionReviewVersions is mandatory for admissionregistration.k8s.io/v1 webhook configurations; write admissionReviewVersions=v1",
    ],
    [
      "neither path nor url",
      set(`@webhook ${BASE}`, "path", undefined),
      "`url` or `path` is required, and not both: path= for the webhook Service (the usual), url= for an https endpoint outside the cluster",
    ],
    [
      "service arguments with url",
      `${set(`@webhook ${BASE}`, "path", undefined)} url=https://h.example.com/x servicePort=1`,
      "servicePort only apply with path=, not with url=",
    ],
    [
      "a path the API server takes but the runtime does not serve",
      set(`@webhook ${BASE}`, "path", "/mutate.v1"),
      'path "/mutate.v1": segments must be lower-case letters, digits and "-", starting and ending with a letter or digit; webhookFor (@opgen/runtime) serves only such paths, so the marker\'s path and the served one could not match',
    ],
  ];
  it.each(cases)("%s", async (_, marker, message) => {
    const r = await run(marker);
    expect(r.errors).toEqual([`src/hooks.ts:2:4: @webhook: ${message}`]);
    expect(r.files).toEqual([]);
  });

  const kube = (
    message: string,
    kind = "MutatingWebhookConfiguration mutating-webhook-configuration",
  ) => `src/hooks.ts:2:4: @webhook: kube-apiserver would refuse ${kind}: ${message}`;
  const kubeCases: [string, string, string[]][] = [
    [
      "failurePolicy",
      set(`@webhook ${BASE}`, "failurePolicy", "never"),
      [
        kube(
          'webhooks[0].failurePolicy: Unsupported value: "never": supported values: "Fail", "Ignore"',
        ),
      ],
    ],
    [
      "operation",
      set(`@webhook ${BASE}`, "verbs", "create;patch"),
      [
        kube(
          'webhooks[0].rules[0].operations[1]: Unsupported value: "patch": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
        ),
      ],
    ],
    [
      "* among operations",
      set(`@webhook ${BASE}`, "verbs", "*;create"),
      [
        kube(
          'webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
        ),
      ],
    ],
    [
      "two-segment name",
      set(`@webhook ${BASE}`, "name", "mapp.kb"),
      [
        kube(
          'webhooks[0].name: Invalid value: "mapp.kb": should be a domain with at least three segments separated by dots',
        ),
      ],
    ],
    [
      "upper-case name",
      set(`@webhook ${BASE}`, "name", "MApp.kb.io"),
      [
        expect.stringContaining(
          'webhooks[0].name: Invalid value: "MApp.kb.io": a lowercase RFC 1123 subdomain',
        ) as unknown as string,
      ],
    ],
    [
      "resources",
      set(`@webhook ${BASE}`, "resources", "*;apps"),
      [
        kube(
          'webhooks[0].rules[0].resources: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other resources without subresources',
        ),
      ],
    ],
    [
      "http url",
      `${set(`@webhook ${BASE}`, "path", undefined)} url=http://h.example.com/x`,
      [
        kube(
          "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
        ),
      ],
    ],
    [
      "url query",
      `${set(`@webhook ${BASE}`, "path", undefined)} url="https://h.example.com/x?a=b"`,
      [
        kube(
          'webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
        ),
      ],
    ],
    [
      "path without /",
      set(`@webhook ${BASE}`, "path", "mutate"),
      [
        kube(
          "webhooks[0].clientConfig.service.path: Invalid value: \"mutate\": must start with a '/'",
        ),
      ],
    ],
    [
      "servicePort",
      `@webhook ${BASE} servicePort=70000`,
      [
        kube(
          "webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
        ),
      ],
    ],
    [
      "review versions",
      set(`@webhook ${BASE}`, "admissionReviewVersions", "v2;v2"),
      [
        kube('webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version'),
        kube(
          'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
        ),
      ],
    ],
    [
      "selector value",
      `@webhook ${BASE} patch=\`{"objectSelector":{"matchExpressions":[{"key":"a","operator":"In"}]}}\``,
      [
        kube(
          "webhooks[0].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        ),
      ],
    ],
  ];
  it.each(kubeCases)("kube-apiserver: %s", async (_, marker, messages) => {
    const r = await run(marker);
    expect(r.errors).toEqual(messages);
    expect(r.files).toEqual([]);
  });

  it("a configuration name that is not a DNS subdomain, at its @webhookconfiguration", async () => {
    const r = await run(`@webhook ${BASE}`, "@webhookconfiguration mutating=true name=Demo_Hooks");
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^src\/hooks\.ts:7:4: @webhookconfiguration: kube-apiserver would refuse MutatingWebhookConfiguration Demo_Hooks: metadata\.name: Invalid value: "Demo_Hooks": a lowercase RFC 1123 subdomain/,
      ),
    ]);
  });

  it("the parser's checks: unknown argument with a suggestion, missing argument, wrong type", async () => {
    const r = await run(
      `@webhook ${set(BASE, "failurePolicy", undefined)} failurPolicy=fail`,
      `@webhook ${set(BASE, "mutating", "yes")}`,
    );
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^src\/hooks\.ts:2:\d+: @webhook: unknown argument "failurPolicy"; did you mean "failurePolicy"\?$/,
      ),
      'src/hooks.ts:2:4: @webhook: missing argument "failurePolicy" (a string)',
      expect.stringMatching(
        /^src\/hooks\.ts:7:\d+: @webhook: argument "mutating": expected true or false, got "yes"$/,
      ),
    ]);
  });

  it("reports a misspelt marker name instead of silently configuring nothing", async () => {
    const r = await run(
      `@webhooks ${BASE}`,
      "@kubebuilder:webhok:mutating=true",
      "@see webhook docs",
    );
    expect(r.errors).toEqual([
      "src/hooks.ts:2:4: unknown marker @webhooks; did you mean @webhook?",
      "src/hooks.ts:7:4: unknown marker @kubebuilder:webhok:mutating; did you mean @kubebuilder:webhook?",
    ]);
  });

  it("warns about a Go-style line comment, and refuses a file that does not parse", async () => {
    writeFileSync(
      join(dir, "src/hooks.ts"),
      `// +kubebuilder:webhook:${BASE.replaceAll(" ", ",")}\nexport class A {}\n`,
    );
    writeFileSync(join(dir, "src/broken.ts"), `/** @webhook ${BASE} */\nexport class {\n`);
    const r = await generateWebhooks({ projectDir: dir });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(/^src\/broken\.ts:\d+:\d+: syntax error: /),
      `src/hooks.ts:1:4: warning: a line comment is not a marker and configures no webhook; write it in a JSDoc block: /** @webhook ${BASE} */`,
    ]);
    expect(r.files).toEqual([]);
  });
});

describe("@webhook beside other generators and in the catalogue", () => {
  it("is not an error where the CRD generator reads the comment of a type", () => {
    const text = `/**\n * @webhook ${BASE}\n */\n`;
    const tags = parseJSDoc(text, 0, text.length - 1, new LineMap("x.ts", text)).tags;
    expect(parseMarkers(tags, "type", markerRegistry())).toEqual({ markers: [], diagnostics: [] });
    expect(parseMarkers(tags, "source", markerRegistry()).markers).toHaveLength(1);
  });

  it("opgen markers lists and explains both markers", async () => {
    let out = "";
    await runMarkers(undefined, {}, (t) => {
      out += t;
    });
    expect(out).toContain("Webhooks (config/webhook/manifests.yaml):");
    expect(out).toContain("@webhookconfiguration mutating=<bool> [name=<string>]");
    out = "";
    await runMarkers("kubebuilder:webhook", {}, (t) => {
      out += t;
    });
    expect(out).toContain("kubebuilder:  +kubebuilder:webhook");
    expect(out).toContain("admissionReviewVersions  string;string..., required");
  });
});
