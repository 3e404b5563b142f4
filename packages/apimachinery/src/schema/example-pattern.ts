/**
 * A string that a CRD `pattern` (Go RE2 syntax) accepts, for example objects (example.ts): the
 * pattern is read as a sequence of literals, classes, groups and alternatives, and each piece
 * yields its first (shortest) choice; `extra` spreads more repetitions over the open quantifiers so a minLength
 * can be met. The caller checks the result with Go's matcher: constructs this reading does not
 * follow (a negated class that rules out every candidate, a lookaround Go refuses anyway) give a
 * string that does not match, and no value is claimed for them.
 */

type Piece =
  | { kind: "text"; text: string }
  | { kind: "group"; alternatives: Piece[][] }
  | { kind: "repeat"; piece: Piece; min: number; max: number };

const UNBOUNDED = Number.POSITIVE_INFINITY;

/** Characters tried, in order, for a class, `.` or an escape: readable ones first. */
const CANDIDATES = "a0A-._x1bzZ9 /:@";

const CLASS_ESCAPES: Record<string, (c: string) => boolean> = {
  d: (c) => /[0-9]/.test(c),
  D: (c) => !/[0-9]/.test(c),
  w: (c) => /[0-9A-Za-z_]/.test(c),
  W: (c) => !/[0-9A-Za-z_]/.test(c),
  s: (c) => /[\t\n\f\r ]/.test(c),
  S: (c) => !/[\t\n\f\r ]/.test(c),
};

const POSIX_CLASSES: Record<string, (c: string) => boolean> = {
  alnum: (c) => /[0-9A-Za-z]/.test(c),
  alpha: (c) => /[A-Za-z]/.test(c),
  digit: (c) => /[0-9]/.test(c),
  lower: (c) => /[a-z]/.test(c),
  upper: (c) => /[A-Z]/.test(c),
  xdigit: (c) => /[0-9A-Fa-f]/.test(c),
  word: (c) => /[0-9A-Za-z_]/.test(c),
  space: (c) => /\s/.test(c),
  punct: (c) => /[!-/:-@[-`{-~]/.test(c),
};

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Piece[][] {
    const alts = this.alternatives();
    if (this.i < this.src.length) throw new Error(`unexpected ${this.src[this.i]}`);
    return alts;
  }

  private alternatives(): Piece[][] {
    const alts: Piece[][] = [this.sequence()];
    while (this.src[this.i] === "|") {
      this.i++;
      alts.push(this.sequence());
    }
    return alts;
  }

  private sequence(): Piece[] {
    const seq: Piece[] = [];
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") {
      const atom = this.atom();
      if (atom) seq.push(this.quantified(atom));
    }
    return seq;
  }

  private quantified(piece: Piece): Piece {
    let out = piece;
    for (;;) {
      const c = this.src[this.i];
      let min: number;
      let max: number;
      if (c === "*") [min, max] = [0, UNBOUNDED];
      else if (c === "+") [min, max] = [1, UNBOUNDED];
      else if (c === "?") [min, max] = [0, 1];
      else if (c === "{") {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
        if (!m) return out;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] ? Number(m[3]) : UNBOUNDED;
        this.i += m[0].length - 1;
      } else return out;
      this.i++;
      if (this.src[this.i] === "?") this.i++; // lazy: the same strings
      out = { kind: "repeat", piece: out, min, max };
    }
  }

  private atom(): Piece | undefined {
    const c = this.src[this.i++]!;
    switch (c) {
      case "^":
      case "$":
        return undefined;
      case ".":
        return { kind: "text", text: "a" };
      case "[":
        return { kind: "text", text: this.charClass() };
      case "(": {
        if (this.src[this.i] === "?") {
          // (?flags) alone sets flags: nothing to produce; (?flags:...) and (?P<name>...) group.
          const m = /^\?(P?<[^>]*>|[imsU-]*:|[imsU-]*\))/.exec(this.src.slice(this.i));
          if (!m) throw new Error("unsupported group");
          this.i += m[0].length;
          if (m[0].endsWith(")")) return undefined;
        }
        const alternatives = this.alternatives();
        if (this.src[this.i] !== ")") throw new Error("missing )");
        this.i++;
        return { kind: "group", alternatives };
      }
      case "\\":
        return this.escape();
      default:
        return { kind: "text", text: c };
    }
  }

  private escape(): Piece | undefined {
    const c = this.src[this.i++];
    if (c === undefined) throw new Error("trailing backslash");
    if (c === "A" || c === "z" || c === "b" || c === "B") return undefined;
    const cls = CLASS_ESCAPES[c];
    if (cls) return { kind: "text", text: pick(cls) };
    if (c === "p" || c === "P") {
      // \pL, \p{Greek}: a letter is the usual intent; the matcher has the last word.
      if (this.src[this.i] === "{") this.i = this.src.indexOf("}", this.i) + 1;
      else this.i++;
      return { kind: "text", text: c === "p" ? "a" : "0" };
    }
    const named: Record<string, string> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v" };
    return { kind: "text", text: named[c] ?? c };
  }

  /** The first readable character a `[...]` class accepts (the `[` already read). */
  private charClass(): string {
    let negated = false;
    if (this.src[this.i] === "^") {
      negated = true;
      this.i++;
    }
    const tests: ((c: string) => boolean)[] = [];
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== "]" || first)) {
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.i));
      if (posix) {
        const t = POSIX_CLASSES[posix[2]!] ?? (() => false);
        tests.push(posix[1] ? (c) => !t(c) : t);
        this.i += posix[0].length;
        continue;
      }
      let lo = this.src[this.i++]!;
      if (lo === "\\") {
        const e = this.src[this.i++]!;
        const cls = CLASS_ESCAPES[e];
        if (cls) {
          tests.push(cls);
          continue;
        }
        lo = { n: "\n", t: "\t", r: "\r" }[e] ?? e;
      }
      if (
        this.src[this.i] === "-" &&
        this.src[this.i + 1] !== "]" &&
        this.i + 1 < this.src.length
      ) {
        this.i++;
        let hi = this.src[this.i++]!;
        if (hi === "\\") hi = this.src[this.i++]!;
        const [a, b] = [lo.codePointAt(0)!, hi.codePointAt(0)!];
        tests.push((c) => c.codePointAt(0)! >= a && c.codePointAt(0)! <= b);
        continue;
      }
      const literal = lo;
      tests.push((c) => c === literal);
    }
    if (this.src[this.i] !== "]") throw new Error("missing ]");
    this.i++;
    const inClass = (c: string) => tests.some((t) => t(c));
    if (negated) return pick((c) => !inClass(c));
    const found = [...CANDIDATES].find(inClass);
    if (found) return found;
    // A class of only unusual characters: its first literal or range start.
    for (let cp = 0x21; cp < 0x2000; cp++) {
      const ch = String.fromCodePoint(cp);
      if (inClass(ch)) return ch;
    }
    return "a";
  }
}

function pick(test: (c: string) => boolean): string {
  return [...CANDIDATES].find(test) ?? "a";
}

function render(seq: Piece[], budget: { extra: number }): string {
  let out = "";
  for (const piece of seq) out += renderPiece(piece, budget);
  return out;
}

function renderPiece(piece: Piece, budget: { extra: number }): string {
  switch (piece.kind) {
    case "text":
      return piece.text;
    case "group":
      return render(piece.alternatives[0]!, budget);
    case "repeat": {
      const more = Math.min(piece.max - piece.min, budget.extra);
      budget.extra -= more;
      let out = "";
      for (let n = 0; n < piece.min + more; n++) out += renderPiece(piece.piece, budget);
      return out;
    }
  }
}

/**
 * Strings the pattern's first alternatives spell, shortest first, `extra` repetitions at a time;
 * undefined when the pattern uses syntax this reading does not know.
 */
export function patternExamples(pattern: string, maxExtra = 64): string[] | undefined {
  let alternatives: Piece[][];
  try {
    alternatives = new Parser(pattern).parse();
  } catch {
    return undefined;
  }
  const out: string[] = [];
  for (const alt of alternatives) {
    for (let extra = 0; extra <= maxExtra; extra++) {
      const s = render(alt, { extra });
      if (out.at(-1) === s && extra > 0) break; // no open quantifier left to grow
      out.push(s);
    }
  }
  return out;
}
