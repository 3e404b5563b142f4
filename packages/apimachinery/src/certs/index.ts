/**
 * `@opgen/apimachinery/certs`: every certificate opgen makes or reads, with one set of rules
 * taken from kube (client-go's `util/cert`, kube-controller-manager's CSR signer, Go's
 * `crypto/x509` layout): envtest's serving CA and certificate, the CA and certificates of local
 * webhook serving, the runtime's self-signed metrics certificate, the signing of
 * CertificateSigningRequests with the cluster CA, and the reading of requests and client
 * certificates.
 *
 * Built on @peculiar/asn1-x509 and @peculiar/asn1-csr (the typed RFC 5280 / RFC 2986 structures
 * beneath @peculiar/x509) with node:crypto for keys, signatures and verification. @peculiar/x509
 * itself signs only through WebCrypto (asynchronously) and needs the global reflect-metadata
 * polyfill; node-forge knows RSA keys only (a request may carry ECDSA or Ed25519 keys) and signs
 * in JavaScript; Node's own X509Certificate parses and verifies but cannot issue.
 */
export { hostAltNames, type SubjectAltNames } from "./alt-names.js";
export { Asn1Error } from "./asn1.js";
export {
  type CertificateAuthority,
  type CertKeyPair,
  issueCertificate,
  type LeafOptions,
  type MintOptions,
  newSelfSignedCA,
  SELF_SIGNED_BACKDATE_MS,
  SELF_SIGNED_TTL_MS,
  selfSignedCertKey,
} from "./authority.js";
export {
  type CertificateTemplate,
  createCertificate,
  type IssuedCertificate,
  type Issuer,
  type ParsedCertificate,
  parseCertificate,
} from "./certificate.js";
export { generatePrivateKey, type KeyAlgorithm, privateKeyPem } from "./keys.js";
export { NAME_OID, type NameAttribute, subjectOf, subjectValues } from "./names.js";
export { encodePem, type PemBlock, pemBlocks } from "./pem.js";
export {
  type CertificateRequest,
  createCertificateRequest,
  parseCertificateRequest,
  parseCsrPem,
  type RequestTemplate,
} from "./request.js";
export {
  SIGNER_BACKDATE_MS,
  SIGNER_SHORT_MS,
  type SignOptions,
  signCertificateRequest,
} from "./signer.js";
export {
  type CertificateRole,
  EXT_KEY_USAGE_OID,
  roleUsages,
  USAGE_NAMES,
  type X509Usages,
  x509Usages,
} from "./usages.js";
