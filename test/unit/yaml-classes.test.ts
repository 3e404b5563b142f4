/**
 * opgen's YAML writer on the classes where writers part from yaml.v2 (tabs, characters above
 * U+FFFF, literal blocks with leading breaks, long and multi-line keys, NEL, LS/PS, `<<`, numbers
 * Go prints in exponent form, a leading BOM, key order past 64 bits, Go's timestamps and integer
 * syntax): each must come out as yaml.v2 wrote it. No Go needed; the differential test checks
 * the same table against yaml.v2 itself.
 */
import { describe, expect, it } from "vitest";
import { toYaml } from "../../src/util/yaml.js";
import { YAML_CLASSES } from "../oracles/yaml/classes.js";

describe("the YAML writer on yaml.v2's special cases", () => {
  it.each(YAML_CLASSES.map((c) => [c.name, c]))("%s", (_, c) => {
    expect(toYaml(c.doc)).toBe(c.yaml);
  });

  it("writes the key << quoted, where yaml.v2's plain key would read back as a merge", () => {
    expect(toYaml({ "<<": { a: 1 }, b: "<<" })).toBe('"<<":\n  a: 1\nb: <<\n');
  });

  it("writes a lone surrogate as U+FFFD, as the UTF-8 file and encoding/json hold it", () => {
    expect(toYaml({ a: "x\ud800y" })).toBe(toYaml({ a: "x\ufffdy" }));
    expect(toYaml({ "\ud800": 1, "\ue000": 2 })).toBe("\ue000: 2\n\ufffd: 1\n");
  });
});
