/** YAML parse errors as one `file:line:col` line, without the yaml library's code frame. */
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { oneLineYamlMessage, yamlErrorLine, yamlReason } from "../../src/util/yaml-errors.js";

describe("yaml errors", () => {
  it("put the position first and drop the code frame", () => {
    const [error] = parseDocument("domain: my.domain\nprojectName: x\n  foo: bar\n").errors;
    expect(error!.message.split("\n").length).toBeGreaterThan(1);
    expect(yamlErrorLine("PROJECT", error!)).toBe(
      "PROJECT:2:14: not valid YAML: Nested mappings are not allowed in compact mappings",
    );
    expect(yamlReason(error!)).toBe("Nested mappings are not allowed in compact mappings");
  });

  it("rewrite a message quoting a file's YAML error with its frame, as envtest throws it", () => {
    const [error] = parseDocument("a: [").errors;
    const quoted = `envtest failed to start: /p/config/crd/bases/x.yaml: ${error!.message}`;
    expect(oneLineYamlMessage(quoted, "/p")).toBe(
      "envtest failed to start: config/crd/bases/x.yaml:1:5: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    );
    expect(oneLineYamlMessage(quoted, "/elsewhere")).toMatch(
      /^envtest failed to start: \/p\/config/,
    );
  });

  it("leave other messages as they are", () => {
    for (const message of ["a: b", "x.yaml: gone at line 1, column 2:", "two\nlines"])
      expect(oneLineYamlMessage(message)).toBe(message);
  });
});
