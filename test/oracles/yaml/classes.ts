/**
 * The classes of strings, keys and numbers where a YAML writer most easily parts from yaml.v2,
 * each with the exact output of gopkg.in/yaml.v2 v2.4 (Marshal, as controller-gen writes), taken
 * from the oracle (test/oracles/yaml/main.go). test/unit/yaml-classes.test.ts checks opgen against
 * them without Go; test/unit/yaml-differential.test.ts checks them against the oracle too.
 */
export interface YamlClass {
  name: string;
  doc: unknown;
  yaml: string;
}

export const YAML_CLASSES: YamlClass[] = [
  {
    name: "a tab is escaped in double quotes",
    doc: { a: "x\ty" },
    yaml: 'a: "x\\ty"\n',
  },
  {
    name: "a line starting with a tab is no literal block",
    doc: { a: "line\n\tindented" },
    yaml: 'a: "line\\n\\tindented"\n',
  },
  {
    name: "a character above U+FFFF is escaped",
    doc: { a: "ok 👍" },
    yaml: 'a: "ok \\U0001F44D"\n',
  },
  {
    name: "a literal block keeps its leading line break",
    doc: { a: "\nfirst", b: 1 },
    yaml: "a: |2-\n\n  first\nb: 1\n",
  },
  {
    name: "trailing line breaks pick the chomping",
    doc: { a: "x\n\n", b: "y\n" },
    yaml: "a: |+\n  x\n\nb: |\n  y\n",
  },
  {
    name: "a kept block ends the document",
    doc: { a: "x\n\n" },
    yaml: "a: |+\n  x\n\n",
  },
  {
    name: "a key over 128 bytes takes the ? form",
    doc: { ["k".repeat(129)]: { a: 1 }, b: [1, 2] },
    yaml: "b:\n- 1\n- 2\n? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: a: 1\n",
  },
  {
    name: "a list under a ? key",
    doc: { ["k".repeat(129)]: [1, { a: 1 }] },
    yaml: "? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: - 1\n  - a: 1\n",
  },
  {
    name: "keys with line breaks",
    doc: { "a\nb": 1, "c\u2028d": 2 },
    yaml: "? |-\n  a\n  b\n: 1\n? 'c   d'\n: 2\n",
  },
  {
    name: "NEL is escaped",
    doc: { a: "x\u0085y" },
    yaml: 'a: "x\\Ny"\n',
  },
  {
    name: "LS and PS break single-quoted lines",
    doc: { a: "x\u2028y", b: "x\u2029y" },
    yaml: "a: 'x   y'\nb: 'x   y'\n",
  },
  {
    name: "<< as a value is plain",
    doc: { b: "<<", c: ["<<"] },
    yaml: "b: <<\nc:\n- <<\n",
  },
  {
    name: "numbers as encoding/json then yaml.v2 give them",
    doc: [
      1234567.5,
      1e20,
      2 ** 64,
      2 ** 63,
      -(2 ** 63),
      -(2 ** 64),
      1e21,
      0.00001,
      123456.5,
      1e-7,
      2 ** 53 + 2,
    ],
    yaml: "- 1.2345675e+06\n- 1e+20\n- 1.8446744073709552e+19\n- 9223372036854776000\n- -9.223372036854776e+18\n- -1.8446744073709552e+19\n- 1e+21\n- 1e-05\n- 123456.5\n- 1e-07\n- 9007199254740994\n",
  },
  {
    name: "a leading BOM escapes every character",
    doc: { a: "\ufeffab c" },
    yaml: 'a: "\\uFEFF\\x61\\x62\\x20\\x63"\n',
  },
  {
    name: "a BOM inside is escaped alone",
    doc: { a: "a\ufeffb" },
    yaml: 'a: "a\\uFEFFb"\n',
  },
  {
    name: "digit runs past 64 bits wrap in key order",
    doc: { x18446744073709551617: 1, x2: 2, x9223372036854775808: 3, x10: 4 },
    yaml: "x9223372036854775808: 3\nx18446744073709551617: 1\nx2: 2\nx10: 4\n",
  },
  {
    name: "timestamps as Go's time.Parse reads them",
    doc: [
      "2024-1-5",
      "2024-02-30",
      "2001-12-14t21:59:43.10-05:00",
      "2001-12-14  21:59:43",
      "2001-12-14T21:59:43+-1:00",
    ],
    yaml: '- "2024-1-5"\n- 2024-02-30\n- "2001-12-14t21:59:43.10-05:00"\n- "2001-12-14  21:59:43"\n- "2001-12-14T21:59:43+-1:00"\n',
  },
  {
    name: "numbers as Go's strconv reads them",
    doc: [
      "0x1FFFFFFFFFFFFFFFFF",
      "1e400",
      "1e-400",
      "0b-1",
      ".5_5",
      "08",
      "0o8",
      "-0x8000000000000001",
      "18446744073709551616",
    ],
    yaml: '- 0x1FFFFFFFFFFFFFFFFF\n- 1e400\n- "1e-400"\n- "0b-1"\n- ".5_5"\n- "08"\n- 0o8\n- -0x8000000000000001\n- "18446744073709551616"\n',
  },
  {
    name: "the empty key and value",
    doc: { "": "" },
    yaml: '"": ""\n',
  },
  {
    name: "a scalar document",
    doc: "x",
    yaml: "x\n",
  },
  {
    name: "an empty list document",
    doc: [],
    yaml: "[]\n",
  },
  {
    name: "control characters, DEL, NBSP, U+FFFE",
    doc: { a: "bell\u0007", b: "del\u007f", c: "\u00a0nbsp", d: "\ufffe" },
    yaml: 'a: "bell\\a"\nb: "del\\x7F"\nc:  nbsp\nd: "\\uFFFE"\n',
  },
  {
    name: "folding counts code points",
    doc: {
      "😀": "𝔘 long text that needs to be folded at some point because it goes past eighty columns 😀",
    },
    yaml: '"\\U0001F600": "\\U0001D518 long text that needs to be folded at some point because\n  it goes past eighty columns \\U0001F600"\n',
  },
];
