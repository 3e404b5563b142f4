/**
 * Key usages named as the certificates.k8s.io API names them (`digital signature`, `server auth`,
 * ...), mapped to X.509's keyUsage bits and extendedKeyUsage OIDs as kube-controller-manager's
 * signer maps them (`keyUsagesFromStrings`). Every certificate opgen makes states its usages in
 * these names, so there is one table.
 */

/** keyUsage bit numbers (RFC 5280: digitalSignature is bit 0). */
const KEY_USAGE_BITS: Record<string, number> = {
  signing: 0,
  "digital signature": 0,
  "content commitment": 1,
  "key encipherment": 2,
  "data encipherment": 3,
  "key agreement": 4,
  "cert sign": 5,
  "crl sign": 6,
  "encipher only": 7,
  "decipher only": 8,
};

/** Extended key usages: the position orders them as Go's ExtKeyUsage constants, then the OID. */
const EXT_KEY_USAGES: Record<string, readonly [number, string]> = {
  any: [0, "2.5.29.37.0"],
  "server auth": [1, "1.3.6.1.5.5.7.3.1"],
  "client auth": [2, "1.3.6.1.5.5.7.3.2"],
  "code signing": [3, "1.3.6.1.5.5.7.3.3"],
  "email protection": [4, "1.3.6.1.5.5.7.3.4"],
  "s/mime": [4, "1.3.6.1.5.5.7.3.4"],
  "ipsec end system": [5, "1.3.6.1.5.5.7.3.5"],
  "ipsec tunnel": [6, "1.3.6.1.5.5.7.3.6"],
  "ipsec user": [7, "1.3.6.1.5.5.7.3.7"],
  timestamping: [8, "1.3.6.1.5.5.7.3.8"],
  "ocsp signing": [9, "1.3.6.1.5.5.7.3.9"],
  "microsoft sgc": [10, "1.3.6.1.4.1.311.10.3.3"],
  "netscape sgc": [11, "2.16.840.1.113730.4.1"],
};

export const EXT_KEY_USAGE_OID = {
  any: "2.5.29.37.0",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
} as const;

export interface X509Usages {
  /** keyUsage as flags (bit n of RFC 5280 is 1 << n), 0 for none. */
  keyUsage: number;
  /** extendedKeyUsage OIDs, deduplicated, in Go's order. */
  extKeyUsage: string[];
  /** Names neither table knows. */
  unrecognized: string[];
}

/** The keyUsage flags and extendedKeyUsage OIDs for usage names. */
export function x509Usages(usages: readonly string[]): X509Usages {
  let keyUsage = 0;
  const ext = new Map<string, number>();
  const unrecognized: string[] = [];
  for (const usage of usages) {
    const bit = KEY_USAGE_BITS[usage];
    const extUsage = EXT_KEY_USAGES[usage];
    if (bit !== undefined) keyUsage |= 1 << bit;
    else if (extUsage) ext.set(extUsage[1], extUsage[0]);
    else unrecognized.push(usage);
  }
  const extKeyUsage = [...ext].sort((a, b) => a[1] - b[1]).map(([oid]) => oid);
  return { keyUsage, extKeyUsage, unrecognized };
}

/** Every usage name the certificates API accepts, sorted. */
export const USAGE_NAMES: readonly string[] = [
  ...Object.keys(KEY_USAGE_BITS),
  ...Object.keys(EXT_KEY_USAGES),
].sort();

export type CertificateRole = "ca" | "serving" | "client";

/**
 * The usages of a certificate opgen issues for itself, as client-go's certutil sets them:
 * digital signature, key encipherment only for RSA keys (an ECDSA key cannot encipher; Go's
 * generate_cert sets it for RSA alone), and cert sign for a CA, server or client auth otherwise.
 */
export function roleUsages(role: CertificateRole, keyType: string | undefined): string[] {
  const usages = ["digital signature"];
  if (keyType === "rsa") usages.push("key encipherment");
  usages.push(role === "ca" ? "cert sign" : role === "serving" ? "server auth" : "client auth");
  return usages;
}
