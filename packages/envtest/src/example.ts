/**
 * `env.example(kind, values)`: a custom resource for a test, built from the kind's CRD as the
 * cluster serves it now. The test says what it cares about (`metadata`, the fields it checks);
 * every field the schema requires that it leaves out is filled with a valid value, at any depth
 * (`completeExample` of @opgen/apimachinery, the filler of `opgen create api`'s sample). So a test
 * written before a field became required keeps passing once `opgen manifests` regenerates the
 * CRD, and a value the test sets that the schema no longer accepts is refused by the API server
 * with its 422 naming the field. The CRD is read through the API, so the same works with
 * USE_EXISTING_CLUSTER=true.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { completeExample, type JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { KubeObject } from "./api/types.js";

/** What example() needs of a kind: `defineKind`'s descriptors of @opgen/runtime fit. */
export interface ExampleKind<T extends object = KubeObject> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The CRD is `<plural>.<group>`. */
  readonly plural: string;
  /** Carries the object type, as @opgen/runtime's Kind does; never present at runtime. */
  readonly __type?: T;
}

/** Any part of a `T`: what a test sets, the rest being filled from the CRD. */
export type ExampleValues<T> = T extends readonly (infer U)[]
  ? ExampleValues<U>[]
  : T extends object
    ? { [K in keyof T]?: ExampleValues<T[K]> }
    : T;

interface CrdVersion {
  name: string;
  served?: boolean;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
}

/** The object `values` describes, completed from the CRD `kc`'s cluster serves for `kind`. */
export async function exampleObject<T extends object>(
  kc: KubeConfig,
  kind: ExampleKind<T>,
  values: ExampleValues<T> = {} as ExampleValues<T>,
): Promise<T> {
  const crdName = `${kind.plural}.${kind.group}`;
  const what = `example(${kind.kind} ${kind.group}/${kind.version})`;
  const versions = await crdVersions(kc, crdName, what);
  const served = versions.find((v) => v.name === kind.version && v.served !== false);
  if (!served) {
    const names = versions.filter((v) => v.served !== false).map((v) => v.name);
    throw new Error(
      `${what}: the CRD ${crdName} serves ${names.join(", ") || "no version"}, not ${kind.version}; run \`opgen manifests\` and check its versions`,
    );
  }
  // The kind says what the object is; the test's values say the rest.
  const given: Record<string, unknown> = {
    apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version,
    kind: kind.kind,
  };
  for (const [key, value] of Object.entries(values)) {
    if (key !== "apiVersion" && key !== "kind") given[key] = value;
  }
  // A version without a schema (none in apiextensions/v1) requires nothing: the values, copied.
  const { object, problems } = completeExample(served.schema?.openAPIV3Schema ?? {}, given);
  if (problems.length > 0) {
    const fields = problems.map((p) => `${p.field} (${p.message})`).join("; ");
    throw new Error(
      `${what}: no valid value could be derived for ${fields}: set ${problems.length > 1 ? "them" : "it"} in the values given to example()`,
    );
  }
  return object as T;
}

/** The versions of the CRD `name`, read through the API. */
async function crdVersions(kc: KubeConfig, name: string, what: string): Promise<CrdVersion[]> {
  const { status, body } = await getJson(
    kc,
    `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(name)}`,
  );
  if (status === 404)
    throw new Error(
      `${what}: no CustomResourceDefinition ${name} is installed: list its directory (config/crd/bases, which \`opgen manifests\` writes) in startTestEnv's crdDirectoryPaths`,
    );
  const object = body as { spec?: { versions?: CrdVersion[] }; message?: string };
  if (status !== 200)
    throw new Error(
      `${what}: cannot read CustomResourceDefinition ${name}: ${object?.message ?? `HTTP ${status}`}`,
    );
  return object.spec?.versions ?? [];
}

/** GET `path` of the kubeconfig's current cluster, with its credentials; the body parsed. */
async function getJson(kc: KubeConfig, path: string): Promise<{ status: number; body: unknown }> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error("the kubeconfig has no current cluster");
  const url = new URL(server.replace(/\/+$/, "") + path);
  const options: RequestOptions = { method: "GET", headers: { Accept: "application/json" } };
  await kc.applyToHTTPSOptions(options);
  const send = url.protocol === "http:" ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = { message: text.slice(0, 200) };
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("error", reject);
    req.end();
  });
}
