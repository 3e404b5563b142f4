/**
 * PEM as Go's `encoding/pem` reads and writes it: the blocks of a text in order, and one block
 * written with 64-character base64 lines.
 */

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

/**
 * The PEM blocks of `data` in order, as repeated `pem.Decode` finds them: text before, between
 * and after blocks is skipped; a block whose body is not base64 ends the search.
 */
export function pemBlocks(data: Buffer | string): PemBlock[] {
  const text = typeof data === "string" ? data : data.toString("latin1");
  const out: PemBlock[] = [];
  const begin = /-----BEGIN ([^\r\n-]*)-----\r?\n/g;
  for (let m = begin.exec(text); m; m = begin.exec(text)) {
    const type = m[1]!;
    const endMarker = `-----END ${type}-----`;
    const endAt = text.indexOf(endMarker, begin.lastIndex);
    if (endAt < 0) break;
    const lines = text.slice(begin.lastIndex, endAt).split(/\r?\n/);
    const headers: Record<string, string> = {};
    while (lines.length > 0 && lines[0]!.includes(":")) {
      const line = lines.shift()!;
      const i = line.indexOf(":");
      headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
    }
    const b64 = lines.join("").replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) break;
    out.push({ type, headers, bytes: Buffer.from(b64, "base64") });
    begin.lastIndex = endAt + endMarker.length;
  }
  return out;
}

/** One PEM block of `type` holding `der`, ending with a newline (`pem.EncodeToMemory`). */
export function encodePem(type: string, der: Uint8Array): string {
  const lines =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join("\n")}${lines.length ? "\n" : ""}-----END ${type}-----\n`;
}
