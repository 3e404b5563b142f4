/** Writes and loads the kubeconfig of an envtest server (CA data + bearer token), usable by kubectl and client-node alike. */
import { writeFileSync } from "node:fs";
import { KubeConfig } from "@kubernetes/client-node";
import { stringify } from "yaml";

export interface KubeconfigInput {
  server: string;
  caPem: string;
  token: string;
  user?: string;
  namespace?: string;
}

export function kubeconfigYaml(input: KubeconfigInput): string {
  const user = input.user ?? "envtest-admin";
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    preferences: {},
    clusters: [
      {
        name: "envtest",
        cluster: {
          server: input.server,
          "certificate-authority-data": Buffer.from(input.caPem).toString("base64"),
        },
      },
    ],
    users: [{ name: user, user: { token: input.token } }],
    contexts: [
      {
        name: "envtest",
        context: { cluster: "envtest", user, namespace: input.namespace ?? "default" },
      },
    ],
    "current-context": "envtest",
  });
}

export function writeKubeconfig(path: string, input: KubeconfigInput): void {
  writeFileSync(path, kubeconfigYaml(input), { mode: 0o600 });
}

export function kubeConfigOf(input: KubeconfigInput): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml(input));
  return kc;
}
