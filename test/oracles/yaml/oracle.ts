/**
 * The client side of test/oracles/yaml/main.go: sends a batch of documents (and opgen's YAML of
 * each) through one process and returns yaml.v2's answers in order.
 */
import { spawnSync } from "node:child_process";
import type { GoOracleSpec } from "../../helpers/go-oracle.js";

export const YAML_ORACLE: GoOracleSpec = {
  name: "yaml",
  imports: ["gopkg.in/yaml.v2", "sigs.k8s.io/yaml"],
  packages: ["golang-1.19-go", "golang-gopkg-yaml.v2-dev", "golang-k8s-sigs-yaml-dev"],
};

export interface YamlRequest {
  doc: unknown;
  /** opgen's YAML of doc, for yaml.v2 to read back. */
  yaml?: string;
}

export interface YamlAnswer {
  /** yaml.v2 Marshal of the value. */
  v2: string;
  /** sigs.k8s.io/yaml.Marshal of the value (through encoding/json, as controller-gen). */
  sigs: string;
  sigsErr?: string;
  /** controller-tools genall's path, for object documents. */
  genall?: string;
  genallErr?: string;
  /** "" when yaml.v2 reads opgen's YAML back as the value, else where it differs. */
  readBack: string;
  err?: string;
}

export function askYamlOracle(binary: string, requests: readonly YamlRequest[]): YamlAnswer[] {
  if (requests.length === 0) return [];
  const result = spawnSync(binary, [], {
    input: requests.map((r) => JSON.stringify(r)).join("\n"),
    encoding: "utf8",
    maxBuffer: 2 ** 30,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`yaml oracle exited with ${result.status}: ${result.stderr}`);
  }
  const answers = result.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as YamlAnswer);
  if (answers.length !== requests.length) {
    throw new Error(`yaml oracle answered ${answers.length} of ${requests.length} requests`);
  }
  return answers;
}
