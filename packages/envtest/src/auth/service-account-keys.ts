/**
 * The key pair that signs and verifies service-account tokens (kube-apiserver's
 * `--service-account-signing-key-file` and `--service-account-key-file`): RSA, so tokens are
 * RS256 as on a default cluster. Made once per process and shared by every server it starts
 * (each still has its own port, tokens and state): generating an RSA key is the costliest part
 * of a first start.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";

export interface ProcessKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

let cachedKeys: ProcessKeys | undefined;

/** The process's RSA key pair for service-account tokens. */
export function processKeyPair(): ProcessKeys {
  cachedKeys ??= generateKeyPairSync("rsa", { modulusLength: 2048 });
  return cachedKeys;
}
