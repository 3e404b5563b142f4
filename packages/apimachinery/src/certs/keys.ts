/**
 * Keys and signatures, all native (node:crypto): key generation, PEM export as client-go's
 * keyutil writes it, and the signature algorithm Go's x509 picks for a signing key.
 *
 * New keys are ECDSA P-256 unless asked otherwise: generating one takes well under a
 * millisecond where RSA 2048 takes tens to hundreds (a random prime search), and every client
 * that talks to opgen accepts it (Go's crypto/tls, so kubectl, kube-apiserver's webhook client
 * and Prometheus; Node's tls, so @kubernetes/client-node). kubeadm offers the same choice.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { parseDer } from "./asn1.js";
import { x509 } from "./asn1-lib.cjs";

export type KeyAlgorithm = "ecdsa-p256" | "rsa-2048";

/** A new private key (its public half is `createPublicKey(key)`). */
export function generatePrivateKey(algorithm: KeyAlgorithm = "ecdsa-p256"): KeyObject {
  return algorithm === "rsa-2048"
    ? generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey
    : generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
}

/** The key as keyutil.MarshalPrivateKeyToPEM writes it: SEC1 (EC), PKCS#1 (RSA), else PKCS#8. */
export function privateKeyPem(key: KeyObject): string {
  const type =
    key.asymmetricKeyType === "ec" ? "sec1" : key.asymmetricKeyType === "rsa" ? "pkcs1" : "pkcs8";
  return key.export({ type, format: "pem" }).toString();
}

/** A public key (or its SubjectPublicKeyInfo DER) as the structure a certificate carries. */
export function publicKeyInfo(key: KeyObject | Uint8Array): x509.SubjectPublicKeyInfo {
  const der =
    key instanceof Uint8Array
      ? key
      : (key.type === "private" ? createPublicKey(key) : key).export({
          type: "spki",
          format: "der",
        });
  return parseDer(der, x509.SubjectPublicKeyInfo);
}

export interface SignatureScheme {
  /** The signatureAlgorithm of what the key signs. */
  algorithm: x509.AlgorithmIdentifier;
  sign(data: Uint8Array): Buffer;
}

const SHA256_WITH_RSA = "1.2.840.113549.1.1.11";
const ECDSA_WITH = {
  sha256: "1.2.840.10045.4.3.2",
  sha384: "1.2.840.10045.4.3.3",
  sha512: "1.2.840.10045.4.3.4",
};
const ED25519 = "1.3.101.112";
const CURVE_HASH: Record<string, keyof typeof ECDSA_WITH> = {
  prime256v1: "sha256",
  secp384r1: "sha384",
  secp521r1: "sha512",
};

/** How Go's x509 signs with `key`: SHA-256 with RSA, ECDSA with the curve's hash, or Ed25519. */
export function signatureScheme(key: KeyObject): SignatureScheme {
  switch (key.asymmetricKeyType) {
    case "rsa":
      return {
        // RSA signature algorithms carry an explicit NULL parameter (RFC 4055).
        algorithm: new x509.AlgorithmIdentifier({ algorithm: SHA256_WITH_RSA, parameters: null }),
        sign: (data) => sign("sha256", data, key),
      };
    case "ec": {
      const hash = CURVE_HASH[key.asymmetricKeyDetails?.namedCurve ?? ""];
      if (!hash) break;
      return {
        algorithm: new x509.AlgorithmIdentifier({ algorithm: ECDSA_WITH[hash] }),
        sign: (data) => sign(hash, data, key),
      };
    }
    case "ed25519":
      return {
        algorithm: new x509.AlgorithmIdentifier({ algorithm: ED25519 }),
        sign: (data) => sign(null, data, key),
      };
  }
  throw new Error("x509: only RSA, ECDSA (P-256, P-384, P-521) and Ed25519 keys can sign");
}
