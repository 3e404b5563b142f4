/**
 * Seeded random documents for the YAML differential test: CRD-shaped (nested schemas with
 * descriptions, enums, defaults of every JSON type, patterns, CEL rules, printer columns) and now
 * and then any JSON value, with strings drawn from the characters real projects use and the ones
 * YAML treats specially: indicators, scalars that read as other types, tabs, line breaks of every
 * kind, NEL, LS/PS, BOM, control characters, characters above U+FFFF, long lines and long keys.
 */
import { compareKeys } from "../../../src/util/yaml/key-order.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** mulberry32: a small, fast seeded generator of floats in [0, 1). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the a an of to is must be field name value list map object set when if not only one more " +
  "than default defaults optional required deprecated use Kubernetes controller spec status " +
  "replicas Pod container image port protocol TCP UDP selector label annotation DNS-1123 RFC " +
  "e.g. i.e. `foo` `bar-baz` (optional) [alpha] {key} 100Mi 0.5 v1 v1beta1 apps/v1 " +
  "https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#dns-label-names " +
  "x-kubernetes-int-or-string IfNotPresent Always Never ./path/to/file C:\\temp 50% #1 @user"
).split(" ");

/** Strings YAML would read as another type, or that start or hold indicators. */
const TRICKY = [
  ...["true", "True", "yes", "Y", "y", "n", "on", "OFF", "null", "Null", "~", "", "<<", "="],
  ...["0", "1", "-1", "+1", "0x1F", "0X1f", "0o17", "0O17", "017", "08", "09.5", "1_000"],
  ...["-0b101", "0b-1", "0b+1", "0b2", "0b", "0x", "1e3", "1E+3", ".5", ".5_5", "-.5", "+.5"],
  ...["+.inf", ".NaN", ".nan", ".inf", "-.Inf", "1e400", "1e-400", ".5e999", "1.", "1._5"],
  ...["-", "+", ".", "..", "12:30", "1:2:3", "190:20:30.15", "-1:30", "1:60", "1_0:30"],
  ...[
    "2024-01-15",
    "2024-1-5",
    "2024-02-30",
    "2024-02-29",
    "2023-02-29",
    "2001-12-14t21:59:43.10-05:00",
  ],
  ...[
    "2001-12-14 21:59:43.10",
    "2001-12-14  21:59:43",
    "2001-12-14T21:59:43Z",
    "2001-12-14T24:00:00Z",
  ],
  ...["2001-12-14T21:59:43+-1:00", "2001-12-14T21:59:43.1234567890Z", "2001-12-14T21:59:43,5Z"],
  ...["2001-12-14T21:59Z", "2001-12-14 ", "2001-12-14T21:59:43+0100", "1999-1-1 1:1:1"],
  ...["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809"],
  ...["18446744073709551615", "18446744073709551616", "+9223372036854775808", "0x7FFFFFFFFFFFFFFF"],
  ...["0xFFFFFFFFFFFFFFFF", "0x10000000000000000", "-0x8000000000000000", "-0x8000000000000001"],
  ...["100Mi", "0.5Gi", "1/2", "v1", "- x", "-x", "? x", "?x", ": x", ":x", "a: b", "a:b", "a:"],
  ...["a #b", "a#b", "#a", "@a", "%a", "`a`", "*a", "&a", "!a", "|a", ">a", "'a'", '"a"', "{a}"],
  ...["[a]", ",a", "a,b", "---", "--- x", "...", "... x", "-- x", "a\\b", "\\", "'", '"', "''"],
  ...["a\x00#b", "a\t#b", "a\t: b", "-\tx", "?\t", ":\t"],
];

/** Characters every class of YAML's character rules. */
const SPECIAL = [
  ...["\t", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "\ufeff", "\u00a0", "\u0000", "\u0007"],
  ...["\u001b", "\u007f", "\u0080", "\u009f", "\ufffe", "\uffff", "\ufffd", "\ue000", "\ud7ff"],
  ...["😀", "👍🏽", "𝔘", "\u{10ffff}", "\u{1f1e9}\u{1f1ea}", "é", "ß", "ü", "ñ", "日本語", "中文"],
  ...["Ωμέγα", "Привет", "עברית", "العربية", "e\u0301", "\u200b", "ǅ", "Ⅻ", "٣", "１２", "\u00ad"],
  ...["\u000b", "\u000c", "\u0008", "\u001f", "\ud800", "\udc00"],
];

const PATTERNS = [
  "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
  "^\\d{1,3}(\\.\\d{1,3}){3}$",
  "^(\\+|-)?[0-9]+(\\.[0-9]+)?$",
  "^[^\\s]+$",
  "^#[0-9a-fA-F]{6}$",
  "^\\t",
  "^https?://",
  "[\\u4e00-\\u9fa5]+",
  "^(0|[1-9][0-9]*)$",
  "^[A-Za-z_][A-Za-z0-9_]*: .*$",
  "^'.*'$",
  '^".*"$',
  "(?i)^yes|no$",
  "^[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?$",
  "^\\\\\\\\server\\\\share$",
];

const RULES = [
  "self.minReplicas <= self.replicas",
  "self.name.matches('^[a-z]+$')",
  '!has(self.x) || self.x != ""',
  "self.all(x, x.startsWith('a\\\\b'))",
  "'foo' in self.tags",
  'self.x == "it\'s"',
  "self.y.matches('\\\\d+') && size(self.y) < 10",
  "self == oldSelf",
  "has(self.spec) ? self.spec.size > 0 : true",
  "self.map(k, self[k] == 'x: y')",
  "self.z.all(e, e in ['a', \"b\", '#c'])",
  "quantity(self.mem).isLessThan(quantity('1Gi'))",
  "self.a\n  && self.b",
  "\tself.tab",
];

const KEY_WORDS = "name spec status type items properties port selector x y value replicas".split(
  " ",
);

/** Keys: schema property names mostly, and every kind yaml.v2 sorts or writes specially. */
const ODD_KEYS = [
  ...["a9", "a10", "a010", "a0010", "item1", "item01", "item001", "v1beta1", "v1alpha2", "v10"],
  ...[
    "x12345678901234567890123",
    "x9999999999999999999",
    "x18446744073709551617",
    "x00000000000000000000001",
  ],
  ...["ñame", "émoji😀", "日本", "Zeta", "zeta", "_x", ".x", "x.y", "x/y", "x:y", "x: y", "#x"],
  ...["x #y", "- x", "?", "<<", "true", "1", "", " ", "a b", "a\nb", "a\u2028b", "a\r\nb", "\n"],
  ...["\tx", "x\t", "٣4", "x٣", "１", "a\u0085b", "\ufeffk", "😀", "a'b", 'a"b', "{}", "[]", "-"],
];

export class DocumentGenerator {
  private readonly rnd: () => number;

  constructor(seed: number) {
    this.rnd = random(seed);
  }

  int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  chance(p: number): boolean {
    return this.rnd() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** One document: a CRD mostly, any JSON value sometimes. */
  document(): Json {
    if (this.chance(0.05)) return this.json(0);
    return this.crd();
  }

  crd(): Json {
    const kind = this.pick(["Widget", "CronJob", "AppCluster", "Thing"]);
    const version: { [k: string]: Json } = {
      name: this.pick(["v1", "v1beta1", "v2alpha1"]),
      schema: { openAPIV3Schema: this.schema(0, "object") },
      served: true,
      storage: true,
    };
    if (this.chance(0.5)) version.subresources = { status: {} };
    if (this.chance(0.3)) version.additionalPrinterColumns = this.printerColumns();
    if (this.chance(0.1)) version.deprecationWarning = this.text();
    return {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: {
        annotations: { "controller-gen.kubebuilder.io/version": "v0.17.2" },
        name: `${kind.toLowerCase()}s.example.com`,
      },
      spec: {
        group: "example.com",
        names: {
          kind,
          listKind: `${kind}List`,
          plural: `${kind.toLowerCase()}s`,
          singular: kind.toLowerCase(),
          ...(this.chance(0.3) ? { shortNames: [this.pick(["w", "cj", "ac"])] } : {}),
        },
        scope: this.pick(["Namespaced", "Cluster"]),
        versions: [version],
      },
    };
  }

  printerColumns(): Json {
    return Array.from({ length: 1 + this.int(3) }, () => ({
      jsonPath: this.pick([".spec.replicas", '.status.conditions[?(@.type=="Ready")].status']),
      name: this.chance(0.8) ? this.pick(["Ready", "Age", "Replicas"]) : this.text(),
      type: this.pick(["string", "integer", "date"]),
      ...(this.chance(0.3) ? { description: this.text() } : {}),
    }));
  }

  schema(depth: number, type?: string): { [k: string]: Json } {
    const t =
      type ?? this.pick(["object", "array", "string", "string", "integer", "number", "boolean"]);
    const s: { [k: string]: Json } = { type: t };
    if (this.chance(0.7)) s.description = this.text();
    if (t === "object" && depth < 4) {
      const props = this.object(1 + this.int(depth === 0 ? 6 : 4), () => this.schema(depth + 1));
      s.properties = props;
      const names = Object.keys(props);
      if (this.chance(0.5)) s.required = names.filter(() => this.chance(0.5));
    } else if (t === "object") {
      s["x-kubernetes-preserve-unknown-fields"] = true;
    }
    if (t === "array") {
      s.items = depth < 4 ? this.schema(depth + 1) : { type: "string" };
      if (this.chance(0.3)) s.maxItems = this.int(100);
      if (this.chance(0.2)) s["x-kubernetes-list-type"] = this.pick(["atomic", "set", "map"]);
    }
    if (t === "string") {
      if (this.chance(0.3))
        s.enum = Array.from({ length: 1 + this.int(5) }, () => this.scalarString());
      if (this.chance(0.3)) s.pattern = this.chance(0.7) ? this.pick(PATTERNS) : this.text();
      if (this.chance(0.2)) s.maxLength = this.int(300);
      if (this.chance(0.1)) s.format = this.pick(["date-time", "int-or-string", "byte", "ipv4"]);
    }
    if (t === "integer" || t === "number") {
      if (this.chance(0.4)) s.minimum = this.number();
      if (this.chance(0.4)) s.maximum = this.number();
      if (this.chance(0.2)) s.enum = Array.from({ length: 1 + this.int(4) }, () => this.number());
    }
    if (this.chance(0.3)) s.default = this.json(depth + 2);
    if (this.chance(0.1)) s.example = this.json(depth + 2);
    if (this.chance(0.25)) s["x-kubernetes-validations"] = this.rules();
    if (this.chance(0.05)) s.nullable = true;
    return s;
  }

  rules(): Json {
    return Array.from({ length: 1 + this.int(2) }, () => {
      const rule: { [k: string]: Json } = {
        rule: this.chance(0.7) ? this.pick(RULES) : this.text(),
      };
      if (this.chance(0.6)) rule.message = this.text();
      if (this.chance(0.2))
        rule.messageExpression = `'bad: ' + ${this.pick(["self.x", "string(self.y)"])}`;
      if (this.chance(0.1)) rule.reason = "FieldValueInvalid";
      return rule;
    });
  }

  /** Any JSON value, shallower as depth grows. */
  json(depth: number): Json {
    const roll = this.int(depth > 4 ? 4 : 6);
    if (roll === 0) return null;
    if (roll === 1) return this.chance(0.5);
    if (roll === 2) return this.number();
    if (roll === 3) return this.chance(0.5) ? this.scalarString() : this.text();
    if (roll === 4) return Array.from({ length: this.int(4) }, () => this.json(depth + 1));
    return this.object(this.int(5), () => this.json(depth + 1));
  }

  /** An object whose keys yaml.v2 orders consistently (see keysConsistent). */
  object(size: number, value: () => Json): { [k: string]: Json } {
    const o: { [k: string]: Json } = {};
    for (let i = 0; i < size; i++) o[this.key()] = value();
    return keysConsistent(Object.keys(o)) ? o : this.object(size, value);
  }

  key(): string {
    const roll = this.rnd();
    if (roll < 0.75) {
      const w = this.pick(KEY_WORDS);
      return this.chance(0.3)
        ? `${w}${this.pick(KEY_WORDS).replace(/^./, (c) => c.toUpperCase())}`
        : w;
    }
    if (roll < 0.9) return this.pick(ODD_KEYS);
    if (roll < 0.95) return this.long(120 + this.int(20));
    return this.text();
  }

  /** A string of about n UTF-8 bytes (keys around yaml.v2's 128-byte simple-key limit). */
  long(n: number): string {
    let s = "";
    while (Buffer.byteLength(s) < n)
      s += this.chance(0.9) ? this.pick("abcdefgh ".split("")) : this.pick(["é", "日", "😀"]);
    return s;
  }

  scalarString(): string {
    return this.chance(0.6) ? this.pick(TRICKY) : this.chance(0.5) ? this.pick(WORDS) : this.text();
  }

  number(): number {
    const fixed = [
      ...[0, 1, -1, 42, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 2 ** 64, 1e19, -1e19],
      ...[1.8446744073709552e19, 1e20, 1e21, 1e22, 1e300, 0.1, 0.5, 1.5, -0.5, 1e-5, 1e-4, 1e-7],
      ...[0.0001234, 123456.5, 1234567.5, 999999.9, 1e6 + 0.5, 5e-324, Number.MAX_VALUE, -0, 3.14],
    ];
    const roll = this.int(4);
    if (roll === 0) return this.pick(fixed);
    if (roll === 1) return this.int(2000) - 1000;
    if (roll === 2) return (this.rnd() - 0.5) * 10 ** (this.int(40) - 20);
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(0, this.int(2 ** 32));
    view.setUint32(4, this.int(2 ** 32));
    const n = view.getFloat64(0);
    return Number.isFinite(n) ? n : 0;
  }

  /** Description-like text: words, sometimes lines and paragraphs, spiced with special classes. */
  text(): string {
    const words = this.chance(0.2) ? 30 + this.int(60) : 1 + this.int(12);
    let s = "";
    for (let i = 0; i < words; i++) {
      if (i > 0) s += this.pick([" ", " ", " ", " ", " ", "  ", "\n", "\n\n", " \n", "\n "]);
      const roll = this.rnd();
      if (roll < 0.8) s += this.pick(WORDS);
      else if (roll < 0.9) s += this.pick(TRICKY);
      else s += this.pick(SPECIAL);
    }
    if (this.chance(0.1)) s = this.pick([" ", "\n", "\t", "\ufeff", "  ", "\n\n", "- ", "# "]) + s;
    if (this.chance(0.1)) s += this.pick([" ", "\n", "\n\n", "\t", ":", " #", "\r\n", "\u2028"]);
    if (this.chance(0.05)) s += "x".repeat(70 + this.int(40));
    return s;
  }
}

/**
 * Whether yaml.v2 orders these keys the same way whatever order Go's map gives them in: its
 * keyList.Less is not transitive for some digit runs (a zero after a non-zero digit counts from
 * 1, and runs past 64 bits wrap), and then sort.Sort's result depends on Go's random map order.
 */
export function keysConsistent(keys: readonly string[]): boolean {
  // As written: a lone surrogate is U+FFFD, and two keys that become one are no map.
  const written = keys.map((k) => k.replace(/\p{Cs}/gu, "\ufffd"));
  if (new Set(written).size < written.length) return false;
  const sorted = written.sort(compareKeys);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      if (compareKeys(sorted[i]!, sorted[j]!) >= 0) return false;
    }
  }
  return true;
}

/** Every object in v has consistently ordered keys. */
export function allKeysConsistent(v: Json): boolean {
  if (Array.isArray(v)) return v.every(allKeysConsistent);
  if (v !== null && typeof v === "object") {
    return keysConsistent(Object.keys(v)) && Object.values(v).every(allKeysConsistent);
  }
  return true;
}
