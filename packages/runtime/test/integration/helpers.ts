/** Shared fixtures for the envtest-backed integration tests: CRDs, kinds and a manager harness. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEnv, type TestEnv } from "@opgen/envtest";
import { afterAll } from "vitest";
import {
  type Condition,
  createLogger,
  createManager,
  defineKind,
  type Manager,
  type ManagerOptions,
  type ObjectMeta,
} from "../../src/index.js";

export interface AppCluster {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: { size?: number; image?: string };
  status?: { ready?: number; conditions?: Condition[] };
}

export const AppClusterKind = defineKind<AppCluster>({
  group: "demo.my.domain",
  version: "v1",
  kind: "AppCluster",
  plural: "appclusters",
  namespaced: true,
});

/** seed 001's MyApp API (examplev1), as TypeScript. */
export interface MyAppSpec {
  replicas?: number;
  image: string;
  port?: number;
  serviceType?: "ClusterIP" | "NodePort" | "LoadBalancer";
  env?: Array<{ name: string; value?: string }>;
  resources?: {
    limits?: { cpu?: string; memory?: string };
    requests?: { cpu?: string; memory?: string };
  };
  autoScaling?: {
    enabled: boolean;
    minReplicas?: number;
    maxReplicas: number;
    targetCPUUtilizationPercentage?: number;
  };
}

export interface MyAppStatus {
  conditions?: Condition[];
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  lastUpdateTime?: string;
}

export interface MyApp {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: MyAppSpec;
  status?: MyAppStatus;
}

export const MyAppKind = defineKind<MyApp>({
  group: "apps.example.com",
  version: "v1",
  kind: "MyApp",
  plural: "myapps",
  namespaced: true,
});

function crd(group: string, kind: string, plural: string, spec: object, status: object): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                apiVersion: { type: "string" },
                kind: { type: "string" },
                metadata: { type: "object" },
                spec: { type: "object", properties: spec },
                status: { type: "object", properties: status },
              },
            },
          },
        },
      ],
    },
  });
}

const conditions = {
  type: "array",
  items: {
    type: "object",
    required: ["type", "status", "lastTransitionTime", "reason", "message"],
    properties: {
      type: { type: "string" },
      status: { type: "string", enum: ["True", "False", "Unknown"] },
      observedGeneration: { type: "integer", format: "int64" },
      lastTransitionTime: { type: "string", format: "date-time" },
      reason: { type: "string" },
      message: { type: "string" },
    },
  },
};

// CRD folders of the test file, removed after it.
const crdDirs = new Set<string>();
// Registered on the importing test file: vitest ends its workers without an "exit" event.
afterAll(() => {
  for (const dir of crdDirs) rmSync(dir, { recursive: true, force: true });
  crdDirs.clear();
});

/** Writes the test CRDs to a temp directory (one YAML document per file; JSON is YAML). */
export function crdDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "opgen-runtime-crds-"));
  crdDirs.add(dir);
  writeFileSync(
    join(dir, "appclusters.yaml"),
    crd(
      "demo.my.domain",
      "AppCluster",
      "appclusters",
      { size: { type: "integer", format: "int32", minimum: 0 }, image: { type: "string" } },
      { ready: { type: "integer", format: "int32" }, conditions },
    ),
  );
  writeFileSync(
    join(dir, "myapps.yaml"),
    crd(
      "apps.example.com",
      "MyApp",
      "myapps",
      {
        replicas: { type: "integer", format: "int32", minimum: 1, maximum: 100, default: 1 },
        image: { type: "string" },
        port: { type: "integer", format: "int32", minimum: 1, maximum: 65535, default: 8080 },
        serviceType: {
          type: "string",
          enum: ["ClusterIP", "NodePort", "LoadBalancer"],
          default: "ClusterIP",
        },
        env: {
          type: "array",
          items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
        resources: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        autoScaling: {
          type: "object",
          required: ["maxReplicas"],
          properties: {
            enabled: { type: "boolean", default: false },
            minReplicas: { type: "integer", format: "int32", minimum: 1, default: 1 },
            maxReplicas: { type: "integer", format: "int32", minimum: 1, maximum: 100 },
            targetCPUUtilizationPercentage: { type: "integer", format: "int32", default: 80 },
          },
        },
      },
      {
        conditions,
        readyReplicas: { type: "integer", format: "int32" },
        availableReplicas: { type: "integer", format: "int32" },
        observedGeneration: { type: "integer", format: "int64" },
        lastUpdateTime: { type: "string", format: "date-time" },
      },
    ),
  );
  return dir;
}

export async function startEnv(opts: { simulate?: boolean; gc?: boolean } = {}): Promise<TestEnv> {
  return startTestEnv({ crdDirectoryPaths: [crdDir()], ...opts });
}

/** Log lines of a test manager, kept for assertions and printed on DEBUG_RUNTIME_TESTS=1. */
export function testLogger(lines: string[] = []) {
  return createLogger({
    level: "debug",
    write: (l) => {
      lines.push(l);
      if (process.env.DEBUG_RUNTIME_TESTS) process.stderr.write(`${l}\n`);
    },
  });
}

export function newManager(env: TestEnv, opts: ManagerOptions = {}): Manager {
  return createManager({
    kubeconfig: env.kubeconfig,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    logger: testLogger(),
    cache: { initialBackoffMs: 20, maxBackoffMs: 200 },
    ...opts,
  });
}

/** Starts `mgr` and returns a stop function that waits for it to finish. */
export function run(mgr: Manager): { stop: () => Promise<void>; done: Promise<void> } {
  const ac = new AbortController();
  const done = mgr.start(ac.signal);
  return {
    done,
    stop: async () => {
      ac.abort();
      await done;
    },
  };
}

let nsCounter = 0;
/** A fresh namespace per test keeps tests independent. */
export async function namespace(mgr: Manager, prefix = "t"): Promise<string> {
  const name = `${prefix}-${process.pid}-${++nsCounter}`;
  await mgr.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  return name;
}
