/**
 * Kubernetes' CEL IP and CIDR libraries (`library/ip.go`, `library/cidr.go`): `ip()`, `cidr()`,
 * `isIP()`, `isCIDR()`, `ip.isCanonical()` and the `net.IP` / `net.CIDR` methods, with Go
 * netip's parsing (no leading zeros in IPv4, no zones, no IPv4-mapped IPv6) and its RFC 5952
 * text form. Parsed by hand: Node can validate an address but not give its bytes.
 */
import { isIPv4, isIPv6 } from "node:net";
import type { Environment } from "@marcbachmann/cel-js";
import { namespace } from "./namespace.js";
import { celError } from "./values.js";

const IP = "net.IP";
const CIDR = "net.CIDR";

class CelIP {
  constructor(readonly bytes: Uint8Array) {}
  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }
  equals(other: unknown): boolean {
    return other instanceof CelIP && Buffer.from(this.bytes).equals(Buffer.from(other.bytes));
  }
  toString(): string {
    if (this.family === 4) return [...this.bytes].join(".");
    const groups: number[] = [];
    for (let i = 0; i < 16; i += 2)
      groups.push(((this.bytes[i] as number) << 8) | (this.bytes[i + 1] as number));
    // RFC 5952: compress the longest run (two or more) of zero groups, the first on a tie.
    let best = -1;
    let bestLen = 1;
    for (let i = 0; i < 8; ) {
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > bestLen) {
        best = i;
        bestLen = j - i;
      }
      i = j === i ? i + 1 : j;
    }
    const hex = groups.map((g) => g.toString(16));
    if (best < 0) return hex.join(":");
    return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`;
  }
}

class CelCIDR {
  constructor(
    readonly ip: CelIP,
    readonly prefix: number,
  ) {}
  equals(other: unknown): boolean {
    return other instanceof CelCIDR && other.prefix === this.prefix && this.ip.equals(other.ip);
  }
  masked(): CelCIDR {
    const b = Uint8Array.from(this.ip.bytes);
    for (let bit = this.prefix; bit < b.length * 8; bit++)
      b[bit >> 3] = (b[bit >> 3] as number) & ~(0x80 >> (bit & 7));
    return new CelCIDR(new CelIP(b), this.prefix);
  }
  contains(ip: CelIP): boolean {
    if (ip.family !== this.ip.family) return false;
    for (let bit = 0; bit < this.prefix; bit++) {
      const m = 0x80 >> (bit & 7);
      if (((this.ip.bytes[bit >> 3] as number) & m) !== ((ip.bytes[bit >> 3] as number) & m))
        return false;
    }
    return true;
  }
  toString(): string {
    return `${this.ip}/${this.prefix}`;
  }
}

function parseIPv4(s: string, into: Uint8Array, at: number): boolean {
  const parts = s.split(".");
  if (parts.length !== 4) return false;
  for (const [i, p] of parts.entries()) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return false;
    into[at + i] = Number(p);
  }
  return true;
}

/** netip.ParseAddr's bytes, or an error text. */
function parseAddr(s: string): CelIP | string {
  if (s.includes("%")) return `ParseAddr(${JSON.stringify(s)}): IPv6 zones are not allowed`;
  if (isIPv4(s)) {
    const b = new Uint8Array(4);
    if (!parseIPv4(s, b, 0))
      return `ParseAddr(${JSON.stringify(s)}): IPv4 field has octet with leading zero`;
    return new CelIP(b);
  }
  if (!isIPv6(s)) return `ParseAddr(${JSON.stringify(s)}): unable to parse IP`;
  const b = new Uint8Array(16);
  let text = s;
  let tail = 0;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    if (!parseIPv4(v4[1] as string, b, 12))
      return `ParseAddr(${JSON.stringify(s)}): IPv4 field has octet with leading zero`;
    text = `${text.slice(0, -(v4[1] as string).length)}0:0`;
    tail = 2;
  }
  const [head = "", rest] = text.split("::");
  const h = head ? head.split(":") : [];
  const r = rest === undefined ? [] : rest ? rest.split(":") : [];
  const groups = rest === undefined ? h : [...h, ...Array(8 - h.length - r.length).fill("0"), ...r];
  groups.forEach((g, i) => {
    if (tail && i >= 6) return;
    const n = Number.parseInt(g, 16);
    b[i * 2] = n >> 8;
    b[i * 2 + 1] = n & 0xff;
  });
  const ip = new CelIP(b);
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) {
    return `IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`;
  }
  return ip;
}

function ip(s: string): CelIP {
  const r = parseAddr(s);
  if (typeof r === "string")
    throw celError(
      `IP Address ${JSON.stringify(s)} parse error during conversion from string: ${r}`,
    );
  return r;
}

function parseCIDR(s: string): CelCIDR | string {
  const slash = s.lastIndexOf("/");
  if (slash < 0) return `netip.ParsePrefix(${JSON.stringify(s)}): no '/'`;
  const addr = parseAddr(s.slice(0, slash));
  if (typeof addr === "string") return `netip.ParsePrefix(${JSON.stringify(s)}): ${addr}`;
  const bits = s.slice(slash + 1);
  const max = addr.family === 4 ? 32 : 128;
  if (!/^(0|[1-9]\d*)$/.test(bits) || Number(bits) > max) {
    return `netip.ParsePrefix(${JSON.stringify(s)}): bad bits after slash: ${JSON.stringify(bits)}`;
  }
  return new CelCIDR(addr, Number(bits));
}

function cidr(s: string): CelCIDR {
  const r = parseCIDR(s);
  if (typeof r === "string")
    throw celError(`network address parse error during conversion from string: ${r}`);
  return r;
}

const isLoopback = (a: CelIP) => (a.family === 4 ? a.bytes[0] === 127 : a.toString() === "::1");
const isUnspecified = (a: CelIP) => a.bytes.every((x) => x === 0);
const isMulticast = (a: CelIP) =>
  a.family === 4 ? ((a.bytes[0] as number) & 0xf0) === 0xe0 : a.bytes[0] === 0xff;
const isLinkLocalUnicast = (a: CelIP) =>
  a.family === 4
    ? a.bytes[0] === 169 && a.bytes[1] === 254
    : a.bytes[0] === 0xfe && ((a.bytes[1] as number) & 0xc0) === 0x80;
const isLinkLocalMulticast = (a: CelIP) =>
  a.family === 4
    ? a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0
    : a.bytes[0] === 0xff && ((a.bytes[1] as number) & 0x0f) === 0x02;
const isGlobalUnicast = (a: CelIP) =>
  !(a.family === 4 && a.bytes.every((x) => x === 255)) &&
  !isUnspecified(a) &&
  !isLoopback(a) &&
  !isMulticast(a) &&
  !isLinkLocalUnicast(a);

export function registerNetwork(env: Environment): void {
  env.registerType(IP, CelIP);
  env.registerType(CIDR, CelCIDR);
  env.registerOperator(`${IP} == ${IP}`, (a: CelIP, b: CelIP) => a.equals(b));
  env.registerOperator(`${CIDR} == ${CIDR}`, (a: CelCIDR, b: CelCIDR) => a.equals(b));
  env.registerFunction(`ip(string): ${IP}`, ip);
  env.registerFunction("isIP(string): bool", (s: string) => typeof parseAddr(s) !== "string");
  const ns = namespace(env, "ip");
  env.registerFunction(
    `${ns}.isCanonical(string): bool`,
    (_: unknown, s: string) => ip(s).toString() === s,
  );
  env.registerFunction(`string(${IP}): string`, (a: CelIP) => a.toString());
  env.registerFunction(`${IP}.family(): int`, (a: CelIP) => BigInt(a.family));
  env.registerFunction(`${IP}.isUnspecified(): bool`, isUnspecified);
  env.registerFunction(`${IP}.isLoopback(): bool`, isLoopback);
  env.registerFunction(`${IP}.isLinkLocalMulticast(): bool`, isLinkLocalMulticast);
  env.registerFunction(`${IP}.isLinkLocalUnicast(): bool`, isLinkLocalUnicast);
  env.registerFunction(`${IP}.isGlobalUnicast(): bool`, isGlobalUnicast);
  env.registerFunction(`cidr(string): ${CIDR}`, cidr);
  env.registerFunction("isCIDR(string): bool", (s: string) => typeof parseCIDR(s) !== "string");
  env.registerFunction(`string(${CIDR}): string`, (c: CelCIDR) => c.toString());
  env.registerFunction(`${CIDR}.containsIP(${IP}): bool`, (c: CelCIDR, a: CelIP) => c.contains(a));
  env.registerFunction(`${CIDR}.containsIP(string): bool`, (c: CelCIDR, s: string) =>
    c.contains(ip(s)),
  );
  env.registerFunction(
    `${CIDR}.containsCIDR(${CIDR}): bool`,
    (c: CelCIDR, o: CelCIDR) => o.prefix >= c.prefix && c.contains(o.ip),
  );
  env.registerFunction(`${CIDR}.containsCIDR(string): bool`, (c: CelCIDR, s: string) => {
    const o = cidr(s);
    return o.prefix >= c.prefix && c.contains(o.ip);
  });
  env.registerFunction(`${CIDR}.ip(): ${IP}`, (c: CelCIDR) => c.ip);
  env.registerFunction(`${CIDR}.masked(): ${CIDR}`, (c: CelCIDR) => c.masked());
  env.registerFunction(`${CIDR}.prefixLength(): int`, (c: CelCIDR) => BigInt(c.prefix));
}
