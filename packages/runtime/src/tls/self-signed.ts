/**
 * The certificate the secure metrics server presents when no cert dir is given: a CA and a
 * serving certificate for localhost and 127.0.0.1 made in memory at start, as controller-runtime
 * does with client-go's GenerateSelfSignedCertKeyWithFixtures (kube-controller-manager serves its
 * own metrics the same way). It encrypts the scrape; who may scrape is decided by the
 * TokenReview/SubjectAccessReview filter, not by the certificate. Minted by
 * `@opgen/apimachinery/certs`, with client-go's rules.
 */
import { selfSignedCertKey } from "@opgen/apimachinery/certs";

export interface CertKeyPair {
  /** The serving certificate followed by its CA, PEM. */
  cert: string;
  key: string;
  /** The CA alone, for clients that want to verify (tests, curl --cacert). */
  ca: string;
}

/** Issues a CA (`<host>-ca@<unix>`) and a serving certificate for `host` and `ips`, valid a year. */
export function selfSignedCertificate(host = "localhost", ips = ["127.0.0.1"]): CertKeyPair {
  const { certPem, keyPem, caPem } = selfSignedCertKey(host, ips);
  return { cert: certPem, key: keyPem, ca: caPem };
}
