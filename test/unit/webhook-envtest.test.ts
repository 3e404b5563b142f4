/**
 * The generated config/webhook/manifests.yaml against an API server (@opgen/envtest, which serves
 * admissionregistration.k8s.io/v1): every document is created as written, and reads back with
 * everything opgen wrote (the server may add its defaults); what opgen refuses at the marker,
 * the server refuses with the same field error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { collectWebhookMarkers } from "../../src/generators/webhook/collect.js";
import { buildConfigurations } from "../../src/generators/webhook/configurations.js";
import { generateWebhooks } from "../../src/generators/webhook/index.js";
import { listSourceFiles } from "../../src/source/project-files.js";
import { ProjectSources } from "../../src/source/project-sources.js";

const API = "/apis/admissionregistration.k8s.io/v1";
let env: TestEnv;
let dir: string;

type Json = Record<string, unknown>;

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const ca = Buffer.from(env.kubeconfig.getCurrentCluster()!.caData!, "base64");
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${env.url}${path}`,
      {
        method,
        ca,
        headers: {
          Authorization: `Bearer ${env.adminToken}`,
          Accept: "application/json",
          ...(payload ? { "Content-Type": "application/json" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || "{}") }),
        );
      },
    );
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const RICH = [
  "/**",
  " * @webhook path=/mutate-demo-example-com-v1-app mutating=true failurePolicy=ignore",
  " *   sideEffects=NoneOnDryRun groups=demo.example.com;core resources=apps;pods/status verbs=create;update;delete",
  " *   versions=v1;v1beta1 name=mapp-v1.kb.io admissionReviewVersions=v1;v1beta1 matchPolicy=exact",
  " *   timeoutSeconds=5 reinvocationPolicy=IfNeeded serviceName=hooks serviceNamespace=ops servicePort=8443",
  ' *   namespaceSelector="env in (dev,prod),!skip" objectSelector="tier=web"',
  ` *   patch=\`{"matchConditions":[{"name":"not-system","expression":"!request.userInfo.username.startsWith('system:')"}]}\``,
  " */",
  "export class AppDefaulter {}",
  "",
  "/**",
  ' * @webhook url="https://hooks.example.com:9443/validate" mutating=false failurePolicy=fail',
  " *   sideEffects=None groups=* resources=* verbs=* versions=* name=vall.example.com",
  " *   admissionReviewVersions=v1",
  " * @webhookconfiguration mutating=false name=demo-validating",
  " */",
  "export class AllValidator {}",
  "",
].join("\n");

async function generated(source: string): Promise<Json[]> {
  const project = mkdtempSync(join(dir, "p-"));
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src/hooks.ts"), source);
  const { files, diagnostics } = await generateWebhooks({ projectDir: project });
  expect(diagnostics).toEqual([]);
  return parseAllDocuments(files[0]!.content).map((d) => d.toJS() as Json);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "opgen-webhook-envtest-"));
  env = await startTestEnv();
});

afterAll(async () => {
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function createAll(docs: Json[]): Promise<void> {
  for (const doc of docs) {
    const resource = `${String(doc.kind).toLowerCase()}s`;
    const created = await call("POST", `${API}/${resource}`, doc);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const name = (doc.metadata as Json).name as string;
    const read = await call("GET", `${API}/${resource}/${name}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(doc);
  }
}

/**
 * What controller-gen would write for `source`, before opgen's kube-apiserver checks, and the
 * messages of those checks.
 */
async function unchecked(source: string): Promise<{ docs: Json[]; refusals: string[] }> {
  const project = mkdtempSync(join(dir, "u-"));
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src/hooks.ts"), source);
  const sources = await ProjectSources.create(project);
  const collected = collectWebhookMarkers(sources, listSourceFiles(project, ["src"]));
  const built = buildConfigurations(collected.webhooks, collected.configurations);
  expect([...collected.diagnostics, ...built.diagnostics]).toEqual([]);
  const { diagnostics } = await generateWebhooks({ projectDir: project });
  expect(diagnostics.length).toBeGreaterThan(0);
  return {
    docs: built.configurations.map((c) => c.object as unknown as Json),
    refusals: diagnostics.map((d) => d.message),
  };
}

describe("generated webhook configurations on an API server", () => {
  it("Kubebuilder's project-v4 markers (ten webhooks, core and external groups) are created as written", async () => {
    const docs = (
      await generateWebhooks({
        projectDir: join(import.meta.dirname, "../golden/webhook/project-v4"),
      })
    ).files[0]!.content;
    const parsed = parseAllDocuments(docs).map((d) => d.toJS() as Json);
    expect(parsed.map((d) => d.kind)).toEqual([
      "MutatingWebhookConfiguration",
      "ValidatingWebhookConfiguration",
    ]);
    await createAll(parsed);
  });

  it("every optional argument, selectors, url and a patch are created as written", async () => {
    const docs = await generated(RICH);
    expect((docs[1]!.metadata as Json).name).toBe("demo-validating");
    // Names distinct from the first test's objects: both live on one server.
    await createAll(
      docs.map((d, i) => (i === 0 ? { ...d, metadata: { name: "demo-mutating" } } : d)),
    );
  });

  it("what opgen refuses at the marker, the API server refuses too, in the same words", async () => {
    const hook = (name: string, verbs = "create") =>
      `/**\n * @webhook path=/validate-x mutating=false failurePolicy=fail sideEffects=None groups=apps resources=deployments verbs=${verbs} versions=v1 name=${name} admissionReviewVersions=v1\n */\nexport class C {}\n`;
    for (const [source, message] of [
      [
        hook("vdeploy.kb.io") + hook("vdeploy.kb.io"),
        'webhooks[1].name: Duplicate value: "vdeploy.kb.io"',
      ],
      [
        hook("vdeploy.kb"),
        'webhooks[0].name: Invalid value: "vdeploy.kb": should be a domain with at least three segments separated by dots',
      ],
      [
        hook("vdeploy.kb.io", "*;create"),
        'webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
      ],
    ] as const) {
      const {
        docs: [doc],
        refusals,
      } = await unchecked(source);
      expect(refusals.some((r) => r.endsWith(message) || r.includes(`${message};`))).toBe(true);
      const refused = await call("POST", `${API}/validatingwebhookconfigurations`, doc);
      expect(refused.status).toBe(422);
      expect(String(refused.body.message)).toContain(message);
    }
  });
});
