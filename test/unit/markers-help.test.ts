import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runMarkers } from "../../src/commands/markers.js";
import { markerRegistry } from "../../src/generators/markers.js";
import { markdownReference, usage } from "../../src/markers/help.js";

async function run(name?: string): Promise<string> {
  let out = "";
  await runMarkers(name, {}, (t) => {
    out += t;
  });
  return out;
}

describe("opgen markers", () => {
  it("lists every marker, grouped", async () => {
    const out = await run();
    for (const def of markerRegistry().all()) {
      if (def.itemsOf) continue;
      expect(out).toContain(usage(def));
    }
    expect(out).toMatch(/^Validation \(fields and types\):$/m);
    expect(out).toContain("@validation items:<Name>");
  });

  it("describes one marker, by any spelling", async () => {
    for (const name of ["printcolumn", "@printcolumn", "kubebuilder:printcolumn"]) {
      const out = await run(name);
      expect(out).toContain(
        "@printcolumn name=<string> type=<integer|number|string|boolean|date> jsonPath=<string>",
      );
      expect(out).toContain("repeatable:   yes");
    }
    expect(await run("Minimum")).toContain("@validation Minimum=<number>");
    expect(await run("validation:MaxLength")).toContain(
      "kubebuilder:  +kubebuilder:validation:MaxLength",
    );
  });

  it("rejects an unknown name with a suggestion", async () => {
    await expect(run("printcolumns")).rejects.toThrow(
      'unknown marker "printcolumns"; did you mean "printcolumn"?',
    );
  });
});

describe("docs/markers.md", () => {
  const doc = readFileSync(join(import.meta.dirname, "../../docs/markers.md"), "utf8");

  it("documents every marker: its reference section is generated from the registry", () => {
    const begin = "<!-- BEGIN GENERATED: markers reference -->\n";
    const end = "<!-- END GENERATED: markers reference -->";
    const section = doc.slice(doc.indexOf(begin) + begin.length, doc.indexOf(end));
    // On failure, regenerate the section: `npm run build`, then
    // node -e 'import("./dist/markers/help.js").then(async (h) => console.log(h.markdownReference((await import("./dist/generators/markers.js")).markerRegistry())))'
    // Table cells are compared trimmed: biome aligns markdown tables.
    const tables = (md: string) =>
      md
        .trim()
        .split("\n")
        .map((l) =>
          l.startsWith("|")
            ? l
                .split(/(?<!\\)\|/)
                .map((c) => c.trim().replace(/^-+$/, "---"))
                .join("|")
            : l,
        );
    expect(tables(section)).toEqual(tables(markdownReference(markerRegistry())));
    for (const def of markerRegistry().all()) {
      if (!def.itemsOf) expect(doc).toContain(`\`@${def.name}\``);
    }
  });
});
