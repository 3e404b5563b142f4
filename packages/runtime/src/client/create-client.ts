/**
 * `createClient`: a client of its own, without a manager or cache (controller-runtime's
 * `client.New`): every read goes to the API server. Tests use it to act as the user (the admin of
 * envtest) while the manager runs as the operator's ServiceAccount.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { RestClient } from "../internal/rest/http.js";
import { CachedClient, type Client, type ClientOptions } from "./client.js";
import { RestMapper } from "./mapper.js";

export interface CreateClientOptions extends ClientOptions {
  /**
   * The cluster: a loaded `KubeConfig`, or the path of a kubeconfig file; otherwise KUBECONFIG,
   * ~/.kube/config or in-cluster.
   */
  kubeconfig?: string | KubeConfig;
}

/** The KubeConfig `source` names: itself, the file at that path, or the default locations. */
export function loadKubeConfig(source: string | KubeConfig | undefined): KubeConfig {
  // Not instanceof: the KubeConfig may come from another copy of client-node.
  if (typeof source === "object") return source;
  const kc = new KubeConfig();
  if (source) kc.loadFromFile(source);
  else kc.loadFromDefault();
  return kc;
}

export function createClient(opts: CreateClientOptions = {}): Client {
  const rest = new RestClient(loadKubeConfig(opts.kubeconfig), { userAgent: "opgen-client" });
  return new CachedClient(rest, new RestMapper(rest), undefined, { fieldOwner: opts.fieldOwner });
}
