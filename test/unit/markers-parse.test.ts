import { describe, expect, it } from "vitest";
import { markerRegistry } from "../../src/generators/markers.js";
import { LineMap, parseJSDoc, parseMarkers } from "../../src/markers/index.js";
import type { MarkerTarget } from "../../src/markers/types.js";

/** Parses the first JSDoc comment of `source` as if it stood on `target`. */
function parse(source: string, target: MarkerTarget = "field") {
  const start = source.indexOf("/**");
  const end = source.indexOf("*/", start) + 2;
  const doc = parseJSDoc(source, start, end, new LineMap("types.ts", source));
  return { doc, ...parseMarkers(doc.tags, target, markerRegistry()) };
}

const messages = (r: ReturnType<typeof parse>) =>
  r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`);

describe("parseJSDoc", () => {
  it("splits the description from tags and normalizes it like controller-gen", () => {
    const src = [
      "/**",
      " * Size is the number of pods.",
      " *",
      " *",
      " *   indented line kept",
      " * TODO: not in the description",
      " * @validation Minimum=0",
      " * @default 1",
      " */",
    ].join("\n");
    const { doc } = parse(src);
    expect(doc.description).toBe("Size is the number of pods.\n\n  indented line kept");
    expect(doc.tags.map((t) => [t.name, t.text, t.pos.line, t.pos.column])).toEqual([
      ["validation", "Minimum=0", 7, 4],
      ["default", "1", 8, 4],
    ]);
  });

  it("stops the description at a --- line and reads single-line comments", () => {
    expect(parse("/** A thing.\n * ---\n * hidden */").doc.description).toBe("A thing.");
    expect(parse("/** One line. */").doc.description).toBe("One line.");
  });

  it("joins continuation lines of a tag", () => {
    const { markers } = parse(
      [
        "/**",
        ' * @validation XValidation rule="self.a <= self.b"',
        ' *   message="a must not exceed b"',
        " */",
      ].join("\n"),
      "type",
    );
    expect(markers[0]!.args).toEqual({ rule: "self.a <= self.b", message: "a must not exceed b" });
  });
});

describe("parseMarkers values", () => {
  it("reads typed anonymous values", () => {
    const { markers, diagnostics } = parse(
      '/**\n * @validation Minimum=-0.5\n * @validation MaxLength=10\n * @validation Pattern=`^a,b$`\n * @validation UniqueItems\n * @validation Enum=a;"1";2\n */',
    );
    expect(diagnostics).toEqual([]);
    expect(markers.map((m) => m.args[""])).toEqual([-0.5, 10, "^a,b$", true, ["a", "1", 2]]);
  });

  it("reads @default as a YAML flow value", () => {
    const values = ["1", "ClusterIP", "{}", "[a, b]", "{a: 1, b: [x]}", '"1"', "100Mi", "true"].map(
      (v) => parse(`/** @default ${v} */`).markers[0]!.args[""],
    );
    expect(values).toEqual([
      1,
      "ClusterIP",
      {},
      ["a", "b"],
      { a: 1, b: ["x"] },
      "1",
      "100Mi",
      true,
    ]);
  });

  it("reads named arguments separated by spaces or commas, with quotes and lists", () => {
    const { markers, diagnostics } = parse(
      '/**\n * @resource scope=Cluster,shortName=ac;acs categories=all\n * @printcolumn name="Ready Pods" type=integer jsonPath=`.status.ready` priority=1\n */',
      "root",
    );
    expect(diagnostics).toEqual([]);
    expect(markers[0]!.args).toEqual({
      scope: "Cluster",
      shortName: ["ac", "acs"],
      categories: ["all"],
    });
    expect(markers[1]!.args).toEqual({
      name: "Ready Pods",
      type: "integer",
      jsonPath: ".status.ready",
      priority: 1,
    });
  });

  it("accepts controller-gen spellings", () => {
    const { markers, diagnostics } = parse(
      '/**\n * @kubebuilder:validation:Minimum=1\n * @kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`\n * @kubebuilder:object:root=true\n */',
      "root",
    );
    expect(diagnostics).toEqual([]);
    expect(markers.map((m) => [m.def.name, m.args])).toEqual([
      ["validation Minimum", { "": 1 }],
      ["printcolumn", { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" }],
    ]);
  });

  it("maps controller-gen names that opgen spells differently", () => {
    const { markers, diagnostics } = parse(
      "/**\n * @kubebuilder:validation:Optional\n * @kubebuilder:pruning:PreserveUnknownFields\n * @kubebuilder:default=3\n */",
    );
    expect(diagnostics).toEqual([]);
    expect(markers.map((m) => m.def.name)).toEqual([
      "optional",
      "validation XPreserveUnknownFields",
      "default",
    ]);
    expect(markers[2]!.args[""]).toBe(3);
  });

  it("leaves documentation tags alone", () => {
    expect(parse("/**\n * @see https://example.com\n * @deprecated use b\n */")).toMatchObject({
      markers: [],
      diagnostics: [],
    });
  });
});

describe("parseMarkers errors (file:line:col: message)", () => {
  it("unknown marker, with a suggestion", () => {
    expect(messages(parse("/**\n * @validaton Minimum=1\n */"))).toEqual([
      "types.ts:2:4: unknown marker @validaton; did you mean @validation?",
    ]);
    expect(messages(parse("/**\n * x\n * @validation Minimun=1\n */"))).toEqual([
      "types.ts:3:4: unknown marker @validation Minimun; did you mean @validation Minimum?",
    ]);
  });

  it("unknown controller-gen spelling, with a suggestion", () => {
    expect(messages(parse("/**\n * @kubebuilder:validation:Minimun=1\n */"))).toEqual([
      "types.ts:2:4: unknown marker @kubebuilder:validation:Minimun; did you mean @kubebuilder:validation:Minimum?",
    ]);
  });

  it("unknown argument, with a suggestion, at the argument", () => {
    expect(messages(parse("/**\n * @resource scop=Cluster\n */", "root"))).toEqual([
      'types.ts:2:14: @resource: unknown argument "scop"; did you mean "scope"?',
    ]);
  });

  it("missing argument", () => {
    expect(messages(parse("/**\n * @printcolumn name=Age type=date\n */", "root"))).toEqual([
      'types.ts:2:4: @printcolumn: missing argument "jsonPath" (a string)',
    ]);
    expect(messages(parse("/** @validation Minimum */"))).toEqual([
      "types.ts:1:5: @validation Minimum: missing value (a number)",
    ]);
  });

  it("wrong value type, at the value", () => {
    expect(messages(parse("/**\n * @validation Minimum=abc\n */"))).toEqual([
      'types.ts:2:24: @validation Minimum: expected a number, got "abc"',
    ]);
    expect(messages(parse("/**\n * @resource scope=Global\n */", "root"))).toEqual([
      'types.ts:2:20: @resource: argument "scope": expected one of Namespaced, Cluster, got "Global"',
    ]);
    expect(
      messages(
        parse("/**\n * @printcolumn name=a type=string jsonPath=.a priority=high\n */", "root"),
      ),
    ).toEqual([
      'types.ts:2:57: @printcolumn: argument "priority": expected a whole number, got "high"',
    ]);
  });

  it("wrong target", () => {
    expect(messages(parse("/**\n * @resource\n */", "field"))).toEqual([
      "types.ts:2:4: @resource cannot stand on a field; it belongs on a root type (@resource)",
    ]);
  });

  it("a marker given twice that may appear once: with different values only", () => {
    expect(messages(parse("/**\n * @validation Minimum=1\n * @validation Minimum=2\n */"))).toEqual(
      ["types.ts:3:4: @validation Minimum is given more than once, with different values (line 2)"],
    );
    // controller-gen takes the same marker twice (an @storageversion copied along): so does opgen.
    const twice = parse(
      "/**\n * @storageversion\n * @resource scope=Cluster\n * @storageversion\n */",
      "root",
    );
    expect(messages(twice)).toEqual([]);
    expect(twice.markers.map((m) => m.def.name)).toEqual(["storageversion", "resource"]);
  });

  it("extra text on a flag marker", () => {
    expect(messages(parse("/**\n * @optional yes\n */"))).toEqual([
      'types.ts:2:14: @optional takes no arguments, got "yes"',
    ]);
  });
});

describe("controller-gen's argument grammar", () => {
  const args = (src: string, target: MarkerTarget = "field") => {
    const r = parse(src, target);
    expect(messages(r)).toEqual([]);
    return r.markers.map((m) => m.args);
  };

  it("reads {a,b} lists as a;b lists, in anonymous and named arguments", () => {
    expect(args("/** @validation Enum={a,b,c} */")).toEqual([{ "": ["a", "b", "c"] }]);
    expect(args("/** @validation Enum=a;b;c */")).toEqual([{ "": ["a", "b", "c"] }]);
    expect(args('/** @validation Enum={"x y",2,true} */')).toEqual([{ "": ["x y", 2, true] }]);
    expect(
      args(
        "/** @rbac groups=apps,resources={deployments,deployments/status},verbs={get,list} */",
        "controller",
      ),
    ).toEqual([
      {
        groups: ["apps"],
        resources: ["deployments", "deployments/status"],
        verbs: ["get", "list"],
      },
    ]);
  });

  it("guesses default values as controller-gen does: lists, maps, nested maps", () => {
    expect(args("/** @default {a,b} */")).toEqual([{ "": ["a", "b"] }]);
    expect(args("/** @default {} */")).toEqual([{ "": {} }]);
    expect(args('/** @default {nested: {foo: "baz", bar: true}} */')).toEqual([
      { "": { nested: { foo: "baz", bar: true } } },
    ]);
    expect(args("/** @kubebuilder:default={x: 1, y: {2,3}} */")).toEqual([
      { "": { x: 1, y: [2, 3] } },
    ]);
  });

  it("reports an unterminated brace at its position", () => {
    const r = parse("/** @validation Enum={a,b */");
    expect(r.markers).toEqual([]);
    expect(messages(r).length).toBe(1);
  });
});

describe("a list written with commas", () => {
  it("is a warning at the value, with the two spellings of a list", () => {
    const r = parse("/** @validation Enum=Phone,Address,Name */");
    expect(r.markers[0]!.args[""]).toEqual(["Phone,Address,Name"]);
    expect(r.diagnostics.map((d) => d.severity)).toEqual(["warning"]);
    expect(messages(r)).toEqual([
      'types.ts:1:22: @validation Enum=Phone,Address,Name is one value, "Phone,Address,Name": write Enum={Phone,Address,Name} or Enum=Phone;Address;Name for 3 values (or Enum="Phone,Address,Name" to keep one)',
    ]);
    expect(messages(parse("/** @validation items:Enum=a, b */"))[0]).toMatch(
      /: @validation items:Enum=a, b is one value, "a, b": write items:Enum=\{a,b\} or items:Enum=a;b for 2 values/,
    );
    expect(messages(parse("/** @kubebuilder:validation:Enum=a,b */"))[0]).toMatch(
      /write Enum=\{a,b\} or Enum=a;b for 2 values/,
    );
  });

  it.each(["Enum={a,b}", "Enum=a;b", 'Enum="a,b"', "Enum=a", 'Enum=a;"b,c"'])(
    "is not said of %s",
    (marker) => {
      expect(parse(`/** @validation ${marker} */`).diagnostics).toEqual([]);
    },
  );
});
