/**
 * Subject alternative names. A host given as text is an IP SAN when it is an IP literal and a
 * DNS SAN otherwise (client-go's certutil); names are written in the order Go's x509 writes them
 * (DNS names, emails, IPs, URIs) and read as Go's parser keeps them (other kinds are ignored).
 */
import { isIP } from "node:net";
import { x509 } from "./asn1-lib.cjs";

export interface SubjectAltNames {
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
  uris: string[];
}

export const noAltNames = (): SubjectAltNames => ({
  dnsNames: [],
  emailAddresses: [],
  ipAddresses: [],
  uris: [],
});

/** Hosts split into DNS and IP SANs, each once, in the order given. */
export function hostAltNames(hosts: readonly string[]): SubjectAltNames {
  const sans = noAltNames();
  for (const host of new Set(hosts)) {
    if (host === "") continue;
    (isIP(host) ? sans.ipAddresses : sans.dnsNames).push(host);
  }
  return sans;
}

export function hasAltNames(sans: SubjectAltNames): boolean {
  return (
    sans.dnsNames.length + sans.emailAddresses.length + sans.ipAddresses.length + sans.uris.length >
    0
  );
}

/** The extension's value, in Go's order. */
export function encodeAltNames(sans: SubjectAltNames): x509.SubjectAlternativeName {
  return new x509.SubjectAlternativeName([
    ...sans.dnsNames.map((dNSName) => new x509.GeneralName({ dNSName })),
    ...sans.emailAddresses.map((rfc822Name) => new x509.GeneralName({ rfc822Name })),
    ...sans.ipAddresses.map((iPAddress) => new x509.GeneralName({ iPAddress })),
    ...sans.uris.map(
      (uniformResourceIdentifier) => new x509.GeneralName({ uniformResourceIdentifier }),
    ),
  ]);
}

/** An address as Go's net.IP prints it: IPv4-mapped addresses dotted, IPv6 per RFC 5952. */
function formatIp(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
}

export function decodeAltNames(value: x509.SubjectAlternativeName): SubjectAltNames {
  const sans = noAltNames();
  for (const name of value) {
    if (name.dNSName !== undefined) sans.dnsNames.push(name.dNSName);
    else if (name.rfc822Name !== undefined) sans.emailAddresses.push(name.rfc822Name);
    else if (name.iPAddress !== undefined) sans.ipAddresses.push(formatIp(name.iPAddress));
    else if (name.uniformResourceIdentifier !== undefined)
      sans.uris.push(name.uniformResourceIdentifier);
  }
  return sans;
}
