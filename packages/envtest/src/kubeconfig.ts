/** Writes and loads the kubeconfig of an envtest server (CA data + bearer token), usable by kubectl and client-node alike. */
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
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

/**
 * Writes the kubeconfig (it holds the admin token) atomically and owner-only: a temporary file
 * with mode 0600 in the same folder, renamed over the target, so a reader never sees half a file,
 * an existing file's looser mode is not kept, and a symlink at the path is replaced, not
 * followed. A folder that is missing or not writable is one clear error.
 */
export function writeKubeconfig(path: string, input: KubeconfigInput): void {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, kubeconfigYaml(input), { mode: 0o600, flag: "wx" });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "its folder does not exist"
        : code === "EACCES" || code === "EPERM"
          ? "its folder is not writable"
          : code === "EISDIR"
            ? "it is a folder"
            : (e as Error).message;
    throw new Error(`cannot write the kubeconfig ${path}: ${why}; choose another path`);
  }
}

export function kubeConfigOf(input: KubeconfigInput): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml(input));
  return kc;
}
