/**
 * `pods/proxy`, `services/proxy` and `nodes/proxy` through the real kubectl 1.32 (`get --raw`,
 * `kubectl proxy`) and raw requests: kube-apiserver 1.32's answers up to the backend, which
 * envtest never dials.
 */
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { isGlobalUnicast } from "../src/registry/core/proxy.js";
import { api, kubectl } from "./helpers.js";

const ns = "/api/v1/namespaces/default";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ simulate: true });
  await kubectl(env, ["run", "web", "--image=nginx", "--port=8080", "--expose"]);
  await kubectl(env, ["run", "plain", "--image=nginx"]);
  await kubectl(env, ["create", "service", "clusterip", "lonely", "--tcp=80:80"]);
  const ready = await kubectl(env, [
    "wait",
    "pod/web",
    "pod/plain",
    "--for=condition=Ready",
    "--timeout=20s",
  ]);
  expect(ready.code).toBe(0);
  // Nodes addressed by IP, by a name no DNS knows (RFC 6761's .invalid), by loopback.
  for (const [name, address] of [
    ["by-ip", { type: "InternalIP", address: "10.0.0.9" }],
    ["by-name", { type: "Hostname", address: "kubelet.invalid" }],
    ["loopback", { type: "InternalIP", address: "127.0.0.1" }],
  ] as const) {
    await api(env, "POST", "/api/v1/nodes", { metadata: { name } });
    await api(
      env,
      "PATCH",
      `/api/v1/nodes/${name}/status`,
      { status: { addresses: [address], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } } },
      { contentType: "application/merge-patch+json" },
    );
  }
});
afterAll(async () => {
  await env?.stop();
});

const raw = async (path: string) => (await kubectl(env, ["get", "--raw", path])).stderr;
const podIP = async (name: string) =>
  (await api(env, "GET", `${ns}/pods/${name}`)).body.status.podIP as string;

describe("discovery", () => {
  it("lists the proxy subresources with every verb, as kube 1.32 does", async () => {
    const core = (await api(env, "GET", "/api/v1")).body.resources as {
      name: string;
      kind: string;
      verbs: string[];
    }[];
    const proxies = Object.fromEntries(
      core.filter((r) => r.name.endsWith("/proxy")).map((r) => [r.name, `${r.kind} ${r.verbs}`]),
    );
    expect(proxies).toEqual({
      "nodes/proxy": "NodeProxyOptions create,delete,get,patch,update",
      "pods/proxy": "PodProxyOptions create,delete,get,patch,update",
      "services/proxy": "ServiceProxyOptions create,delete,get,patch,update",
    });
  });
});

describe("pods/proxy", () => {
  it("dials the pod IP at the first declared port, or the one named, and fails there", async () => {
    const ip = await podIP("web");
    const unreachable = (hostPort: string) =>
      `Error from server (ServiceUnavailable): error trying to reach service: dial tcp ${hostPort}: envtest runs no pod network to answer it`;
    expect(await raw(`${ns}/pods/web/proxy/healthz`)).toBe(unreachable(`${ip}:8080`));
    expect(await raw(`${ns}/pods/web:9090/proxy/`)).toBe(unreachable(`${ip}:9090`));
    // No declared port: the scheme's.
    const plain = await podIP("plain");
    expect(await raw(`${ns}/pods/plain/proxy`)).toBe(unreachable(`${plain}:80`));
    expect(await raw(`${ns}/pods/https:plain:/proxy/x/y`)).toBe(unreachable(`${plain}:443`));
    // Every method is proxied the same way.
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const r = await api(env, method, `${ns}/pods/web/proxy/items`, { any: "body" });
      expect([r.status, r.body.reason]).toEqual([503, "ServiceUnavailable"]);
    }
  });

  it("answers kube's 400s and 404 before any dial", async () => {
    expect(await raw(`${ns}/pods/ftp:web:21/proxy`)).toBe(
      'Error from server (BadRequest): invalid pod request "ftp:web:21"',
    );
    expect(await raw(`${ns}/pods/a:b:c:d/proxy`)).toBe(
      'Error from server (BadRequest): invalid pod request "a:b:c:d"',
    );
    expect(await raw(`${ns}/pods/ghost/proxy/`)).toBe(
      'Error from server (NotFound): pods "ghost" not found',
    );
    const dry = await api(env, "POST", `${ns}/pods/web/proxy?dryRun=All`);
    expect([dry.status, dry.body.message]).toEqual([400, "dryRun is not supported"]);
    // Extra segments stay refused after any other subresource.
    expect((await api(env, "GET", `${ns}/pods/web/log/extra`)).status).toBe(404);
  });
});

describe("services/proxy", () => {
  it("resolves the service port and a ready endpoint, and fails at the pod", async () => {
    const ip = await podIP("web");
    expect(await raw(`${ns}/services/web/proxy/api`)).toBe(
      `Error from server (ServiceUnavailable): error trying to reach service: dial tcp ${ip}:8080: envtest runs no pod network to answer it`,
    );
    expect(await raw(`${ns}/services/web:8080/proxy/`)).toContain(`dial tcp ${ip}:8080`);
  });

  it("answers 503 without endpoints or port, 404 without endpoints object", async () => {
    expect(await raw(`${ns}/services/lonely/proxy/`)).toBe(
      'Error from server (ServiceUnavailable): no endpoints available for service "lonely"',
    );
    expect(await raw(`${ns}/services/web:81/proxy/`)).toBe(
      'Error from server (ServiceUnavailable): no service port 81 found for service "web"',
    );
    // A port name the endpoints do not carry: kube names the whole id.
    expect(await raw(`${ns}/services/http:web:metrics/proxy/`)).toBe(
      'Error from server (ServiceUnavailable): no endpoints available for service "http:web:metrics"',
    );
    expect(await raw(`${ns}/services/ghost/proxy/`)).toBe(
      'Error from server (NotFound): endpoints "ghost" not found',
    );
    expect(await raw(`${ns}/services/ghost:80/proxy/`)).toBe(
      'Error from server (NotFound): services "ghost" not found',
    );
  });
});

describe("nodes/proxy", () => {
  it("dials the kubelet, or another port of the node, and fails there", async () => {
    expect(await raw("/api/v1/nodes/by-ip/proxy/healthz")).toBe(
      "Error from server (ServiceUnavailable): error trying to reach service: dial tcp 10.0.0.9:10250: envtest runs no kubelet to answer it",
    );
    expect(await raw("/api/v1/nodes/by-ip:9100/proxy/metrics")).toBe(
      "Error from server (ServiceUnavailable): error trying to reach service: dial tcp 10.0.0.9:9100: envtest runs no node to answer it",
    );
  });

  it("refuses hostnames that resolve to nothing or to no proxyable address", async () => {
    expect(await raw("/api/v1/nodes/by-name/proxy/")).toBe(
      "Error from server (BadRequest): lookup kubelet.invalid: no such host",
    );
    expect(await raw("/api/v1/nodes/loopback/proxy/")).toBe(
      "Error from server (BadRequest): address not allowed",
    );
    expect(await raw("/api/v1/nodes/ghost/proxy/")).toBe(
      'Error from server (NotFound): nodes "ghost" not found',
    );
  });
});

describe("kubectl proxy", () => {
  it("forwards to envtest, which answers kube's Status for the unreachable pod", async () => {
    const proxy = execa("kubectl", ["--kubeconfig", env.kubeconfigPath, "proxy", "--port=0"], {
      reject: false,
      env: { KUBECTL_VERSION_CHECK: "false" },
    });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        proxy.stdout?.on("data", (chunk: Buffer) => {
          const m = /Starting to serve on (\S+)/.exec(String(chunk));
          if (m) resolve(m[1]!);
        });
        proxy.on("exit", () => reject(new Error("kubectl proxy exited")));
      });
      const r = await fetch(`http://${address}${ns}/pods/web/proxy/`);
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({
        kind: "Status",
        reason: "ServiceUnavailable",
        message: `error trying to reach service: dial tcp ${await podIP("web")}:8080: envtest runs no pod network to answer it`,
      });
    } finally {
      proxy.kill();
      await proxy;
    }
  });
});

describe("without simulate", () => {
  let plain: TestEnv;
  beforeAll(async () => {
    plain = await startTestEnv({ auth: "rbac" });
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it("refuses a pod without a proxyable IP: none reported, or a loopback one", async () => {
    for (const name of ["no-ip", "loopback"])
      await api(plain, "POST", `${ns}/pods`, {
        metadata: { name },
        spec: { containers: [{ name: "app", image: "nginx" }] },
      });
    await api(
      plain,
      "PATCH",
      `${ns}/pods/loopback/status`,
      { status: { podIP: "127.0.0.1", podIPs: [{ ip: "127.0.0.1" }] } },
      { contentType: "application/merge-patch+json" },
    );
    for (const name of ["no-ip", "loopback"])
      expect((await kubectl(plain, ["get", "--raw", `${ns}/pods/${name}/proxy/`])).stderr).toBe(
        "Error from server (BadRequest): address not allowed",
      );
  });

  it("authorizes each method as its verb on the proxy subresource", async () => {
    const r = await kubectl(plain, ["get", "--raw", `${ns}/pods/x/proxy/`, "--as", "bob"]);
    expect(r.stderr).toBe(
      'Error from server (Forbidden): pods "x" is forbidden: User "bob" cannot get resource "pods/proxy" in API group "" in the namespace "default"',
    );
    const del = await api(plain, "DELETE", "/api/v1/nodes/n/proxy/x", undefined, {
      headers: { "Impersonate-User": "bob" },
    });
    expect(del.body.message).toBe(
      'nodes "n" is forbidden: User "bob" cannot delete resource "nodes/proxy" in API group "" at the cluster scope',
    );
  });
});

describe("isGlobalUnicast as Go's net.IP", () => {
  it("refuses unspecified, loopback, multicast, link-local and broadcast addresses", () => {
    const yes = [
      "10.244.0.2",
      "8.8.8.8",
      "240.0.0.1",
      "010.1.2.3",
      "2001:db8::1",
      "::ffff:1.2.3.4",
    ];
    const no = [
      "",
      "web",
      "0.0.0.0",
      "127.0.0.1",
      "224.0.0.1",
      "169.254.1.1",
      "255.255.255.255",
      "256.1.1.1",
      "::",
      "::1",
      "ff02::1",
      "fe80::1",
      "::ffff:127.0.0.1",
    ];
    expect(yes.filter((ip) => !isGlobalUnicast(ip))).toEqual([]);
    expect(no.filter(isGlobalUnicast)).toEqual([]);
  });
});
