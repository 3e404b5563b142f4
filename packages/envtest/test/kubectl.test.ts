// The real kubectl 1.32 against envtest: apiserver-spec.md §12 (1).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, fixtures, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdDirectoryPaths: [join(fixtures, "crds")] });
  await api(env, "POST", "/api/v1/namespaces", { metadata: { name: "k" } });
});
afterAll(async () => {
  await env?.stop();
});

const widget = (name: string, spec: string) => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
  namespace: k
spec:
${spec}
`;

describe("kubectl", () => {
  it("client-side applies a ConfigMap (strategic merge) and prunes removed keys", async () => {
    const cm = (data: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: k
data:
${data}
`;
    expect((await kubectl(env, ["apply", "-f", "-"], cm("  a: '1'\n  b: '2'"))).stdout.trim()).toBe(
      "configmap/settings created",
    );
    const r = await kubectl(env, ["apply", "-f", "-"], cm("  a: '3'"));
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("configmap/settings configured");
    const got = JSON.parse(
      (await kubectl(env, ["get", "cm", "settings", "-n", "k", "-o", "json"])).stdout,
    );
    expect(got.data).toEqual({ a: "3" });
    const table = await kubectl(env, ["get", "cm", "settings", "-n", "k"]);
    expect(table.stdout).toMatch(/^NAME\s+DATA\s+AGE\nsettings\s+1\s+\S+$/);
  });

  it("applies server-side with conflicts and --force-conflicts", async () => {
    const first = await kubectl(
      env,
      ["apply", "--server-side", "-f", "-"],
      widget("ssa", "  mode: fast\n  replicas: 2"),
    );
    expect(first.stdout.trim()).toBe("widget.example.com/ssa serverside-applied");
    const other = await kubectl(
      env,
      ["apply", "--server-side", "--field-manager", "other", "-f", "-"],
      widget("ssa", "  mode: fast\n  replicas: 3"),
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
    );
    const forced = await kubectl(
      env,
      ["apply", "--server-side", "--field-manager", "other", "--force-conflicts", "-f", "-"],
      widget("ssa", "  mode: fast\n  replicas: 3"),
    );
    expect(forced.code).toBe(0);
  });

  it("patches with merge and json, and shows the 415 of a strategic patch on a CR", async () => {
    await kubectl(env, ["apply", "-f", "-"], widget("p", "  mode: fast"));
    const merge = await kubectl(env, [
      "patch",
      "widget",
      "p",
      "-n",
      "k",
      "--type=merge",
      "-p",
      '{"spec":{"replicas":4}}',
    ]);
    expect(merge.stdout.trim()).toBe("widget.example.com/p patched");
    const json = await kubectl(env, [
      "patch",
      "widget",
      "p",
      "-n",
      "k",
      "--type=json",
      "-p",
      '[{"op":"replace","path":"/spec/mode","value":"slow"}]',
    ]);
    expect(json.stdout.trim()).toBe("widget.example.com/p patched");
    const smp = await kubectl(env, [
      "patch",
      "widget",
      "p",
      "-n",
      "k",
      "-p",
      '{"spec":{"replicas":5}}',
    ]);
    expect(smp.code).toBe(1);
    // kubectl wraps the server's 415 Status message in its own prefix.
    expect(smp.stderr.trim()).toBe(
      "error: application/strategic-merge-patch+json is not supported by example.com/v1, Kind=Widget: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    );
    const label = await kubectl(env, ["label", "widget", "p", "-n", "k", "tier=web"]);
    expect(label.stdout.trim()).toBe("widget.example.com/p labeled");
    const got = JSON.parse(
      (await kubectl(env, ["get", "widget", "p", "-n", "k", "-o", "json"])).stdout,
    );
    expect(got.spec).toMatchObject({ mode: "slow", replicas: 4 });
    expect(got.metadata.labels).toEqual({ tier: "web" });
  });

  it("scales through the scale subresource", async () => {
    const r = await kubectl(env, ["scale", "widget", "p", "-n", "k", "--replicas=7"]);
    expect(r.stdout.trim()).toBe("widget.example.com/p scaled");
    const got = JSON.parse(
      (await kubectl(env, ["get", "widget", "p", "-n", "k", "-o", "json"])).stdout,
    );
    expect(got.spec.replicas).toBe(7);
  });

  it("prints printer columns, -A, -o wide, and validation messages", async () => {
    await api(
      env,
      "PATCH",
      "/apis/example.com/v1/namespaces/k/widgets/p/status",
      { status: { conditions: [{ type: "Ready", status: "True" }] } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    const table = await kubectl(env, ["get", "widgets", "-A"]);
    const lines = table.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s+REPLICAS\s+MODE\s+READY\s+AGE$/);
    expect(lines.find((l) => /^k\s+p\s/.test(l))).toMatch(/^k\s+p\s+7\s+slow\s+True\s+\d+s$/);
    const invalid = await kubectl(
      env,
      ["apply", "-f", "-"],
      widget("bad", "  mode: fast\n  replicas: 11\n  tags: [a, b, c, d]"),
    );
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain(
      'The Widget "bad" is invalid: \n* spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10\n* spec.tags: Too many: 4: must have at most 3 items',
    );
    const unknown = await kubectl(
      env,
      ["apply", "-f", "-"],
      widget("unk", "  mode: fast\n  colour: red"),
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('strict decoding error: unknown field "spec.colour"');
  });

  it("waits for a condition and a jsonpath", async () => {
    await kubectl(env, ["apply", "-f", "-"], widget("wait", "  mode: fast"));
    const waiting = kubectl(env, [
      "wait",
      "widget/wait",
      "-n",
      "k",
      "--for=condition=Ready",
      "--timeout=20s",
    ]);
    const jsonpath = kubectl(env, [
      "wait",
      "widget/wait",
      "-n",
      "k",
      "--for=jsonpath={.status.replicas}=2",
      "--timeout=20s",
    ]);
    await new Promise((r) => setTimeout(r, 500));
    await api(
      env,
      "PATCH",
      "/apis/example.com/v1/namespaces/k/widgets/wait/status",
      {
        status: { replicas: 2, conditions: [{ type: "Ready", status: "True" }] },
      },
      { contentType: "application/merge-patch+json" },
    );
    const [a, b] = await Promise.all([waiting, jsonpath]);
    expect(a.stdout.trim()).toBe("widget.example.com/wait condition met");
    expect(b.stdout.trim()).toBe("widget.example.com/wait condition met");
  });

  it("streams changes with get -w", async () => {
    const cache = mkdtempSync(join(tmpdir(), "kubectl-cache-"));
    const proc = execa(
      "kubectl",
      [
        "--kubeconfig",
        env.kubeconfigPath,
        "--cache-dir",
        cache,
        "get",
        "widgets",
        "-n",
        "k",
        "-w",
        "--output-watch-events",
      ],
      {
        reject: false,
      },
    );
    let out = "";
    proc.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    try {
      await eventually(() => expect(out).toMatch(/EVENT\s+NAME\s+REPLICAS/));
      await kubectl(env, ["apply", "-f", "-"], widget("watched", "  mode: fast\n  replicas: 2"));
      await eventually(() => expect(out).toMatch(/ADDED\s+watched\s+2\s+fast/));
      await kubectl(env, ["delete", "widget", "watched", "-n", "k"]);
      await eventually(() => expect(out).toMatch(/DELETED\s+watched\s+2\s+fast/));
    } finally {
      proc.kill("SIGTERM");
      await proc;
    }
  });

  it("deletes with finalizers, without and with waiting until they are removed", async () => {
    const held = (name: string) =>
      api(env, "POST", "/apis/example.com/v1/namespaces/k/widgets", {
        apiVersion: "example.com/v1",
        kind: "Widget",
        metadata: { name, finalizers: ["example.com/cleanup"] },
        spec: { mode: "fast" },
      });
    await held("nowait");
    const nowait = await kubectl(env, ["delete", "widget", "nowait", "-n", "k", "--wait=false"]);
    expect(nowait.stdout.trim()).toBe('widget.example.com "nowait" deleted');
    const stuck = (await api(env, "GET", "/apis/example.com/v1/namespaces/k/widgets/nowait")).body;
    expect(stuck.metadata.deletionTimestamp).toBeDefined();

    await held("waited");
    const deleting = kubectl(env, ["delete", "widget", "waited", "-n", "k", "--timeout=20s"]);
    // Once kubectl's DELETE has marked the object, it is waiting: release the finalizer.
    await eventually(async () => {
      const w = (await api(env, "GET", "/apis/example.com/v1/namespaces/k/widgets/waited")).body;
      expect(w.metadata.deletionTimestamp).toBeDefined();
    });
    await api(
      env,
      "PATCH",
      "/apis/example.com/v1/namespaces/k/widgets/waited",
      { metadata: { finalizers: null } },
      {
        contentType: "application/merge-patch+json",
      },
    );
    const r = await deleting;
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('widget.example.com "waited" deleted');
    expect((await kubectl(env, ["get", "widget", "waited", "-n", "k"])).code).toBe(1);
  });

  it("decodes the protobuf bodies of kubectl create namespace|configmap|secret", async () => {
    expect((await kubectl(env, ["create", "namespace", "proto"])).stdout.trim()).toBe(
      "namespace/proto created",
    );
    const cm = await kubectl(env, [
      "create",
      "configmap",
      "c",
      "-n",
      "proto",
      "--from-literal=a=1",
      "--from-literal=b=2",
    ]);
    expect(cm.stdout.trim()).toBe("configmap/c created");
    const secret = await kubectl(env, [
      "create",
      "secret",
      "generic",
      "s",
      "-n",
      "proto",
      "--from-literal=pw=hunter2",
    ]);
    expect(secret.stdout.trim()).toBe("secret/s created");
    const got = (await api(env, "GET", "/api/v1/namespaces/proto/secrets/s")).body;
    expect(got).toMatchObject({
      type: "Opaque",
      data: { pw: Buffer.from("hunter2").toString("base64") },
    });
    expect((await api(env, "GET", "/api/v1/namespaces/proto/configmaps/c")).body.data).toEqual({
      a: "1",
      b: "2",
    });
  });

  it("decodes the protobuf bodies of every typed kubectl create", async () => {
    const ns = ["-n", "typed"];
    await kubectl(env, ["create", "namespace", "typed"]);
    const cases: [string[], string][] = [
      [
        ["create", "deployment", "d", "--image=nginx", "--replicas=0", "--port=80"],
        "deployment.apps/d created",
      ],
      [["create", "serviceaccount", "sa"], "serviceaccount/sa created"],
      [
        ["create", "role", "r", "--verb=get,list", "--resource=pods"],
        "role.rbac.authorization.k8s.io/r created",
      ],
      [
        ["create", "rolebinding", "rb", "--role=r", "--serviceaccount=typed:sa"],
        "rolebinding.rbac.authorization.k8s.io/rb created",
      ],
      [["create", "job", "j", "--image=busybox", "--", "echo", "hi"], "job.batch/j created"],
      [
        ["create", "cronjob", "cj", "--image=busybox", "--schedule=@hourly"],
        "cronjob.batch/cj created",
      ],
      [["create", "service", "clusterip", "svc", "--tcp=80:8080"], "service/svc created"],
      [["create", "quota", "q", "--hard=pods=2,requests.cpu=500m"], "resourcequota/q created"],
      [
        ["create", "pdb", "pdb", "--selector=app=d", "--min-available=50%"],
        "poddisruptionbudget.policy/pdb created",
      ],
      [
        ["create", "ingress", "ing", "--rule=foo.com/bar=svc:80"],
        "ingress.networking.k8s.io/ing created",
      ],
      [
        [
          "create",
          "secret",
          "docker-registry",
          "reg",
          "--docker-username=u",
          "--docker-password=p",
        ],
        "secret/reg created",
      ],
    ];
    for (const [args, out] of cases) {
      const r = await kubectl(env, [...ns, ...args]);
      expect(r.stderr).toBe("");
      expect(r.stdout.trim()).toBe(out);
    }
    const cr = await kubectl(env, [
      "create",
      "clusterrole",
      "proto-reader",
      "--verb=get",
      "--resource=pods",
    ]);
    expect(cr.stdout.trim()).toBe("clusterrole.rbac.authorization.k8s.io/proto-reader created");
    const pc = await kubectl(env, ["create", "priorityclass", "proto-high", "--value=1000"]);
    expect(pc.stdout.trim()).toBe("priorityclass.scheduling.k8s.io/proto-high created");

    const deploy = (await api(env, "GET", "/apis/apps/v1/namespaces/typed/deployments/d")).body;
    // replicas 0 was set on purpose (a pointer in Go); the zeros of Go's value fields were not.
    expect(deploy.spec.replicas).toBe(0);
    expect(deploy.spec).not.toHaveProperty("minReadySeconds");
    const container = deploy.spec.template.spec.containers[0];
    expect(container).toMatchObject({
      name: "nginx",
      image: "nginx",
      ports: [{ containerPort: 80, protocol: "TCP" }],
      resources: {},
    });
    expect(container).not.toHaveProperty("stdin");
    expect(container.ports[0]).not.toHaveProperty("hostPort");
    const svc = (await api(env, "GET", "/api/v1/namespaces/typed/services/svc")).body;
    expect(svc.spec.ports).toEqual([
      { name: "80-8080", port: 80, protocol: "TCP", targetPort: 8080 },
    ]);
    const pdb = (await api(env, "GET", "/apis/policy/v1/namespaces/typed/poddisruptionbudgets/pdb"))
      .body;
    expect(pdb.spec.minAvailable).toBe("50%");
    const quota = (await api(env, "GET", "/api/v1/namespaces/typed/resourcequotas/q")).body;
    expect(quota.spec.hard).toEqual({ pods: "2", "requests.cpu": "500m" });
    const rb = (
      await api(env, "GET", "/apis/rbac.authorization.k8s.io/v1/namespaces/typed/rolebindings/rb")
    ).body;
    expect(rb.subjects).toEqual([{ kind: "ServiceAccount", name: "sa", namespace: "typed" }]);
    const job = (await api(env, "GET", "/apis/batch/v1/namespaces/typed/jobs/j")).body;
    expect(job.spec.template.spec.containers[0].command).toEqual(["echo", "hi"]);
  });

  it("answers kubectl auth can-i", async () => {
    const r = await kubectl(env, ["auth", "can-i", "delete", "widgets"]);
    expect(r.stdout.trim()).toBe("yes");
  });

  it("answers kubectl auth can-i (a protobuf SelfSubjectAccessReview)", async () => {
    const r = await kubectl(env, ["auth", "can-i", "delete", "widgets", "-n", "k"]);
    expect(r.stdout.trim()).toBe("yes");
  });

  it("client-side applies a Deployment twice (strategic merge with $setElementOrder)", async () => {
    const deploy = (image: string, extra: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: k
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: app
          image: ${image}
          env:
            - {name: A, value: "1"}
${extra}
`;
    const sidecar = "        - name: sidecar\n          image: busybox:1";
    expect(
      (await kubectl(env, ["apply", "-f", "-"], deploy("nginx:1", sidecar))).stdout.trim(),
    ).toBe("deployment.apps/web created");
    const r = await kubectl(env, ["apply", "-f", "-"], deploy("nginx:2", ""));
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("deployment.apps/web configured");
    const got = (await api(env, "GET", "/apis/apps/v1/namespaces/k/deployments/web")).body;
    expect(
      got.spec.template.spec.containers.map(
        (c: { name: string; image: string }) => `${c.name}=${c.image}`,
      ),
    ).toEqual(["app=nginx:2"]);
    expect(got.metadata.generation).toBe(2);
    const table = await kubectl(env, ["get", "deploy", "web", "-n", "k"]);
    expect(table.stdout).toMatch(
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/2\s+0\s+0\s+\S+$/,
    );
  });

  it("describes a custom resource with its events", async () => {
    await kubectl(env, ["apply", "-f", "-"], widget("described", "  mode: fast"));
    const w = (await api(env, "GET", "/apis/example.com/v1/namespaces/k/widgets/described")).body;
    await api(env, "POST", "/api/v1/namespaces/k/events", {
      metadata: { name: "described.1" },
      involvedObject: {
        apiVersion: "example.com/v1",
        kind: "Widget",
        name: "described",
        namespace: "k",
        uid: w.metadata.uid,
      },
      reason: "Reconciled",
      message: "all good",
      type: "Normal",
      source: { component: "widget-controller" },
      firstTimestamp: new Date().toISOString(),
      lastTimestamp: new Date().toISOString(),
      count: 1,
    });
    const r = await kubectl(env, ["describe", "widget", "described", "-n", "k"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Name:\s+described$/m);
    expect(r.stdout).toMatch(/Normal\s+Reconciled\s+\S+\s+widget-controller\s+all good/);
  });

  it("serves YAML when asked for it", async () => {
    const r = await api(env, "GET", "/api/v1/namespaces/k", undefined, {
      accept: "application/yaml",
    });
    expect(r.headers["content-type"]).toBe("application/yaml");
    expect(r.text).toMatch(/^apiVersion: v1\nkind: Namespace\n/);
  });

  it("allocates service cluster IPs and prints services and events", async () => {
    const svc = await kubectl(
      env,
      ["apply", "-f", "-"],
      `apiVersion: v1
kind: Service
metadata: {name: web, namespace: k}
spec:
  selector: {app: web}
  ports: [{port: 80}]
`,
    );
    expect(svc.stdout.trim()).toBe("service/web created");
    const got = (await api(env, "GET", "/api/v1/namespaces/k/services/web")).body;
    expect(got.spec).toMatchObject({
      type: "ClusterIP",
      clusterIP: expect.stringMatching(/^10\.96\.\d+\.\d+$/),
      sessionAffinity: "None",
    });
    expect(got.spec.clusterIPs).toEqual([got.spec.clusterIP]);
    expect(got.spec.ports[0]).toEqual({ port: 80, protocol: "TCP", targetPort: 80 });
    const table = await kubectl(env, ["get", "svc", "-n", "k", "-o", "wide"]);
    expect(table.stdout).toMatch(
      new RegExp(
        `^web\\s+ClusterIP\\s+${got.spec.clusterIP.replaceAll(".", "\\.")}\\s+<none>\\s+80/TCP\\s+\\S+\\s+app=web$`,
        "m",
      ),
    );
    const kubernetes = await kubectl(env, ["get", "svc", "kubernetes", "-n", "default"]);
    expect(kubernetes.stdout).toMatch(
      /^kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP/m,
    );
    const events = await kubectl(env, ["get", "events", "-n", "k"]);
    expect(events.stdout).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
    expect(events.stdout).toMatch(/\s+Normal\s+Reconciled\s+widget\/described\s+all good$/m);
  });

  it("re-applies an unchanged CRD as unchanged", async () => {
    const crd = join(fixtures, "crds", "widgets.yaml");
    // Installed by the environment, so the first apply adds kubectl's annotation.
    const first = await kubectl(env, ["apply", "-f", crd]);
    expect(first.stdout).toBe(
      "customresourcedefinition.apiextensions.k8s.io/widgets.example.com configured",
    );
    const again = await kubectl(env, ["apply", "-f", crd]);
    expect(again.stdout).toBe(
      "customresourcedefinition.apiextensions.k8s.io/widgets.example.com unchanged",
    );
    expect(await kubectl(env, ["diff", "-f", crd])).toMatchObject({ code: 0, stdout: "" });
  });

  it("explains custom resources from their CRD schema", async () => {
    const r = await kubectl(env, ["explain", "widgets.spec.mode"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^KIND:\s+Widget$/m);
    expect(r.stdout).toMatch(/^FIELD: mode <string>$/m);
    expect(r.stdout).toContain("ENUM:\n    fast\n    slow\n");
  });
});
