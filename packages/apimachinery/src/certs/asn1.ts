/**
 * The one door to the ASN.1 library (@peculiar/asn1-schema over asn1js): DER bytes to a typed
 * RFC 5280 / RFC 2986 structure and back. Parsing refuses trailing bytes after the element, as
 * Go's `x509.Parse*` do, and reports failures with Go's `asn1:` prefix, which kube shows in its
 * validation messages.
 */
import { asn1js, schema } from "./asn1-lib.cjs";

/** Bytes that are not the DER of the expected structure. */
export class Asn1Error extends Error {}

/** Parses exactly one DER element of `bytes` as `type`. */
export function parseDer<T>(bytes: Uint8Array | ArrayBuffer, type: new () => T): T {
  const length = bytes.byteLength;
  const decoded = asn1js.fromBER(bytes);
  if (decoded.offset === -1) throw new Asn1Error(`asn1: syntax error: ${decoded.result.error}`);
  if (decoded.offset !== length) throw new Asn1Error("asn1: syntax error: trailing data");
  try {
    return schema.AsnParser.fromASN(decoded.result, type);
  } catch (e) {
    throw new Asn1Error(`asn1: structure error: ${(e as Error).message}`);
  }
}

/** The DER of a structure. */
export function toDer(value: unknown): Buffer {
  return Buffer.from(schema.AsnConvert.serialize(value));
}
