/**
 * `opgen manifests`' sample check validates metadata as kube-apiserver validates a custom
 * resource's (DNS-subdomain names, generateName as a prefix, labels, annotations, the namespace
 * for the kind's scope) and reads List documents item by item, naming each item's index with
 * the file, line and column of the field.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runManifests } from "../../src/commands/manifests.js";
import { tempDir } from "../helpers/cli.js";

const types = (scope: string) => `
export interface AppClusterSpec {
  /**
   * @validation Minimum=1
   * @validation Maximum=10
   */
  size: number;
}

/** @resource scope=${scope} */
export interface AppCluster {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  spec: AppClusterSpec;
}
`;

const SAMPLE = "config/samples/demo_v1_appcluster.yaml";
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

let dir: string;
let err: string;
const io = { out: () => {}, err: (t: string) => (err += t) };

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
}

async function warnings(scope: string, sample: string): Promise<string[]> {
  write("src/api/v1/appcluster.types.ts", types(scope));
  write(SAMPLE, sample);
  await runManifests({ projectDir: dir }, io);
  return err
    .split("\n")
    .filter((l) => l.includes("warning"))
    .map((l) => l.replace(`${SAMPLE}:`, ""));
}

beforeEach(() => {
  dir = tempDir("opgen-samples-metadata-");
  err = "";
  write(
    "src/api/v1/groupversion.ts",
    "/** @groupName demo.my.domain */\nexport const GroupVersion = {};\n",
  );
});

const obj = (metadata: string, size = 1) =>
  `apiVersion: demo.my.domain/v1\nkind: AppCluster\nmetadata:\n${metadata}spec:\n  size: ${size}\n`;

describe("sample metadata", () => {
  it("accepts a valid name, a generateName ending in '-', labels and annotations", async () => {
    expect(
      await warnings(
        "Namespaced",
        obj(
          "  name: app.example-1\n  namespace: team-a\n  labels:\n    app.kubernetes.io/name: demo\n    empty: ''\n" +
            '  annotations:\n    Example.com/Note: "any text: at all"\n',
        ) +
          "---\n" +
          obj("  generateName: app-\n"),
      ),
    ).toEqual([]);
  });

  it("names a bad name, generateName, namespace, label key and value, and annotation key", async () => {
    expect(
      await warnings(
        "Namespaced",
        obj(
          "  name: App_1\n  namespace: Team.A\n  labels:\n    good: Bad value\n    -bad: ok\n" +
            "  annotations:\n    a/b/c: x\n",
        ) +
          "---\n" +
          obj("  generateName: App-\n"),
      ),
    ).toEqual([
      `4:3: warning: metadata.name: Invalid value: "App_1": ${SUBDOMAIN}`,
      `5:3: warning: metadata.namespace: Invalid value: "Team.A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      `7:5: warning: metadata.labels: Invalid value: "Bad value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      `8:5: warning: metadata.labels: Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `10:5: warning: metadata.annotations: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      `17:3: warning: metadata.generateName: Invalid value: "App-": ${SUBDOMAIN}`,
    ]);
  });

  it("refuses annotations over 256 KiB in all, counted in bytes", async () => {
    const big = "é".repeat(65536); // 131072 bytes, 65536 characters
    const ok = await warnings("Namespaced", obj(`  name: a\n  annotations:\n    x: ${big}\n`));
    expect(ok).toEqual([]);
    err = "";
    expect(
      await warnings(
        "Namespaced",
        obj(`  name: a\n  annotations:\n    x: ${big}\n    y: ${big}\n`),
      ),
    ).toEqual(["5:3: warning: metadata.annotations: Too long: may not be more than 262144 bytes"]);
  });

  it("names a namespace on a cluster-scoped kind, which the API server drops", async () => {
    expect(await warnings("Cluster", obj("  name: a\n  namespace: default\n"))).toEqual([
      "5:3: warning: metadata.namespace: ignored: AppCluster is cluster-scoped, and the API server drops the namespace",
    ]);
  });
});

describe("List samples", () => {
  const item = (name: string, size: number, version = "v1") =>
    `- apiVersion: demo.my.domain/${version}\n  kind: AppCluster\n  metadata:\n    name: ${name}\n  spec:\n    size: ${size}\n`;

  it("checks each item of a v1 List and an <Kind>List, naming its index, as kubectl reads them", async () => {
    expect(
      await warnings(
        "Namespaced",
        `apiVersion: v1\nkind: List\nitems:\n${item("a", 1)}${item("b", 20)}${item("C", 1, "v9")}` +
          "---\n" +
          `apiVersion: demo.my.domain/v1\nkind: AppClusterList\nitems:\n${item("d", 0)}` +
          "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: Not_Checked\n",
      ),
    ).toEqual([
      "15:5: warning: items[1]: spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10",
      '16:3: warning: items[2]: no matches for kind "AppCluster" in version "demo.my.domain/v9": the CRD serves v1',
      "31:5: warning: items[0]: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1",
    ]);
  });

  it("names a list inside a list, which kubectl refuses, and an item's metadata", async () => {
    expect(
      await warnings(
        "Namespaced",
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n" +
          "  - apiVersion: demo.my.domain/v1\n    kind: AppCluster\n    metadata:\n      name: a\n    spec:\n      size: 1\n" +
          "- apiVersion: demo.my.domain/v1\n  kind: AppCluster\n  metadata:\n    name: Bad_Name\n  spec:\n    size: 1\n",
      ),
    ).toEqual([
      "4:3: warning: items[0]: a list inside a list: kubectl apply refuses the file (*unstructured.Unstructured is not a list: no Items field in this object)",
      `16:5: warning: items[1]: metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`,
    ]);
  });
});
