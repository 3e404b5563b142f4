/**
 * Distinguished names as Go's `crypto/x509/pkix.Name` reads and writes them: a subject is read
 * into its attributes in order; it is written back with the attribute types pkix.Name knows, in
 * ToRDNSequence's order, all values of a multi-valued type in one RDN, each value a
 * PrintableString when every character allows it, else a UTF8String.
 */
import { toDer } from "./asn1.js";
import { x509 } from "./asn1-lib.cjs";

/** One attribute of a distinguished name: its type's OID and its text. */
export interface NameAttribute {
  oid: string;
  value: string;
}

export const NAME_OID = {
  commonName: "2.5.4.3",
  serialNumber: "2.5.4.5",
  country: "2.5.4.6",
  locality: "2.5.4.7",
  province: "2.5.4.8",
  streetAddress: "2.5.4.9",
  organization: "2.5.4.10",
  organizationalUnit: "2.5.4.11",
  postalCode: "2.5.4.17",
} as const;

/** The types ToRDNSequence writes, in its order; the last two hold one value. */
const WRITE_ORDER = [
  NAME_OID.country,
  NAME_OID.province,
  NAME_OID.locality,
  NAME_OID.streetAddress,
  NAME_OID.postalCode,
  NAME_OID.organization,
  NAME_OID.organizationalUnit,
  NAME_OID.commonName,
  NAME_OID.serialNumber,
];
const SINGLE_VALUED = new Set<string>([NAME_OID.commonName, NAME_OID.serialNumber]);

/** Go's asn1 PrintableString alphabet as Marshal chooses it (`*` allowed, `&` not). */
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?*]*$/;

/** The values of one attribute type, in order. */
export function subjectValues(subject: readonly NameAttribute[], oid: string): string[] {
  return subject.filter((a) => a.oid === oid).map((a) => a.value);
}

/** A subject of a common name and organizations, the shape kube's certificates use. */
export function subjectOf(commonName: string, organizations: readonly string[] = []) {
  return [
    ...organizations.map((value) => ({ oid: NAME_OID.organization, value })),
    { oid: NAME_OID.commonName, value: commonName },
  ];
}

function attribute(oid: string, value: string): x509.AttributeTypeAndValue {
  const text = PRINTABLE.test(value) ? { printableString: value } : { utf8String: value };
  return new x509.AttributeTypeAndValue({ type: oid, value: new x509.AttributeValue(text) });
}

/** A multi-valued RDN: DER orders a SET OF by its elements' encodings, as Go's asn1 does. */
function rdn(items: x509.AttributeTypeAndValue[]): x509.RelativeDistinguishedName {
  const sorted = items
    .map((item) => ({ item, der: toDer(item) }))
    .sort((a, b) => Buffer.compare(a.der, b.der))
    .map((x) => x.item);
  return new x509.RelativeDistinguishedName(sorted);
}

/** The Name Go writes for `attributes` read as a pkix.Name (unknown types are dropped). */
export function encodeName(attributes: readonly NameAttribute[]): x509.Name {
  const rdns: x509.RelativeDistinguishedName[] = [];
  for (const type of WRITE_ORDER) {
    let values = subjectValues(attributes, type);
    // pkix.Name keeps the last CommonName and SerialNumber, and writes them only when set.
    if (SINGLE_VALUED.has(type)) values = values.slice(-1).filter((v) => v !== "");
    if (values.length > 0) rdns.push(rdn(values.map((v) => attribute(type, v))));
  }
  return new x509.Name(rdns);
}

/** The attributes of a Name in order (values that are not strings read as ""). */
export function nameAttributes(name: x509.Name): NameAttribute[] {
  const out: NameAttribute[] = [];
  for (const set of name) {
    for (const atv of set) {
      const v = atv.value;
      out.push({ oid: atv.type, value: v.anyValue === undefined ? v.toString() : "" });
    }
  }
  return out;
}
