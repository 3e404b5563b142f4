/**
 * A minimal DER reader and writer for the X.509 and PKCS#10 structures CertificateSigningRequests
 * carry. Reading keeps every element's exact bytes (a signature covers the bytes as sent, not a
 * re-encoding); writing builds the certificates the signer issues. node-forge's ASN.1 model
 * re-encodes, and its PKI layer only knows RSA keys, so the few structures needed are read here.
 */

export interface Tlv {
  /** The identifier octet (class, constructed bit, tag number < 31). */
  readonly tag: number;
  /** The whole element: identifier, length and contents. */
  readonly raw: Buffer;
  /** The contents octets. */
  readonly body: Buffer;
}

export class DerError extends Error {}

/** Reads one element at `offset` of `buf`; `end` is where the next one starts. */
export function readTlv(buf: Buffer, offset = 0): { tlv: Tlv; end: number } {
  if (offset + 2 > buf.length) throw new DerError("data truncated");
  const tag = buf[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError("high-tag-number form is not supported");
  let len = buf[offset + 1]!;
  let header = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new DerError("indefinite or oversized length");
    if (offset + 2 + n > buf.length) throw new DerError("data truncated");
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[offset + 2 + i]!;
    header += n;
  }
  const end = offset + header + len;
  if (end > buf.length) throw new DerError("data truncated");
  return {
    tlv: { tag, raw: buf.subarray(offset, end), body: buf.subarray(offset + header, end) },
    end,
  };
}

/** Reads exactly one element spanning all of `buf` (trailing bytes are an error). */
export function readOne(buf: Buffer): Tlv {
  const { tlv, end } = readTlv(buf);
  if (end !== buf.length) throw new DerError("trailing data");
  return tlv;
}

/** The elements inside a constructed element. */
export function children(t: Tlv): Tlv[] {
  const out: Tlv[] = [];
  let at = 0;
  while (at < t.body.length) {
    const { tlv, end } = readTlv(t.body, at);
    out.push(tlv);
    at = end;
  }
  return out;
}

export const TAG = {
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8: 0x0c,
  SEQUENCE: 0x30,
  SET: 0x31,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
} as const;

/** Decodes an OBJECT IDENTIFIER's contents to dotted form. */
export function oidOf(t: Tlv): string {
  if (t.tag !== TAG.OID) throw new DerError("expected an object identifier");
  const b = t.body;
  if (b.length === 0) throw new DerError("empty object identifier");
  const parts: number[] = [];
  let v = 0;
  for (const byte of b) {
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  const first = parts.shift()!;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join(".");
}

/** The text of a directory string (UTF8String, PrintableString, IA5String, ...). */
export function stringOf(t: Tlv): string {
  // BMPString is UTF-16BE; the others are byte strings.
  if (t.tag === 0x1e) return Buffer.from(t.body).swap16().toString("utf16le");
  return t.body.toString(t.tag === TAG.UTF8 ? "utf8" : "latin1");
}

// --- writing ---

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
}

export const seq = (...items: Buffer[]): Buffer => der(TAG.SEQUENCE, ...items);

export function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes: number[] = [];
  for (const n of [a! * 40 + b!, ...rest]) {
    const chunk: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128))
      chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return der(TAG.OID, Buffer.from(bytes));
}

/** A non-negative INTEGER from its big-endian magnitude. */
export function unsignedInteger(magnitude: Buffer): Buffer {
  let m = magnitude;
  while (m.length > 1 && m[0] === 0) m = m.subarray(1);
  return der(TAG.INTEGER, m[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), m]) : m);
}

export const bool = (v: boolean): Buffer => der(0x01, Buffer.from([v ? 0xff : 0]));

/** UTCTime through 2049, GeneralizedTime after, as RFC 5280 (and Go's x509) encode validity. */
export function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const year = d.getUTCFullYear();
  return year >= 1950 && year < 2050
    ? der(TAG.UTC_TIME, Buffer.from(`${iso.slice(2)}Z`, "latin1"))
    : der(TAG.GENERALIZED_TIME, Buffer.from(`${iso}Z`, "latin1"));
}

/** A BIT STRING of whole bytes (signatures, keys). */
export const bitString = (bytes: Buffer): Buffer => der(TAG.BIT_STRING, Buffer.from([0]), bytes);

/**
 * A named-bit BIT STRING (keyUsage) with bit 0 first and trailing zero bits dropped, as DER
 * requires and Go's asn1 writes it.
 */
export function namedBits(bits: readonly number[]): Buffer {
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[Math.floor(bit / 8)]! |= 0x80 >> (bit % 8);
  const unused = 7 - (highest % 8);
  return der(TAG.BIT_STRING, Buffer.from([unused]), bytes);
}
