import { describe, expect, it } from "vitest";
import { listTemplates, renderTemplate } from "../../src/generators/scaffold/render.js";

describe("templates", () => {
  it("maps template files to project paths, turning a leading _ into a dot", () => {
    const targets = listTemplates("init").map((t) => t.target);
    expect(targets).toContain(".gitignore");
    expect(targets).toContain(".github/workflows/ci.yml");
    expect(targets).toContain("config/default/kustomization.yaml");
    expect(targets.every((t) => !t.endsWith(".hbs"))).toBe(true);
  });

  it("renders without HTML escaping", () => {
    const out = renderTemplate("api/groupversion.ts.hbs", {
      header: "",
      group: "demo",
      version: "v1",
      qualifiedGroup: "demo.my.domain",
    });
    expect(out).toBe(`/**
 * Package v1 contains API Schema definitions for the demo v1 API group.
 * @groupName demo.my.domain
 * @versionName v1
 */
export const GroupVersion = { group: "demo.my.domain", version: "v1" } as const;
`);
    expect(
      renderTemplate("api/groupversion.ts.hbs", {
        header: "<&>",
        group: "",
        version: "",
        qualifiedGroup: "",
      }),
    ).toMatch(/^<&>/);
  });

  it("fails loudly when a template names a value that was not given", () => {
    expect(() => renderTemplate("api/groupversion.ts.hbs", { header: "" })).toThrow(
      /"version" not defined/,
    );
  });

  it("writes package.json values as JSON literals, so a spec cannot break out of its string", () => {
    const spec = 'file:/home/me/My "opgen"/packages/runtime';
    const out = renderTemplate("init/package.json.hbs", {
      projectName: "demo",
      spdxLicense: "Apache-2.0",
      versions: {
        clientNode: "1.4.0",
        typesNode: "20",
        typescript: "5",
        vitest: "3",
        esbuild: "0.28",
        yaml: "2",
      },
      specs: { runtime: spec, envtest: "^0.1.0", cli: "^0.1.0", apimachinery: "" },
    });
    const pkg = JSON.parse(out);
    expect(pkg.dependencies["@opgen/runtime"]).toBe(spec);
    expect(Object.keys(pkg.dependencies)).toEqual(["@kubernetes/client-node", "@opgen/runtime"]);
  });
});
