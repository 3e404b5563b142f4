import { describe, expect, it } from "vitest";
import { registerController } from "../../src/generators/scaffold/main-ts-edit.js";

const MAIN = `import { createManager, managerOptionsFromArgs, setupSignalHandler } from "@opgen/runtime";
import { myHelper } from "./helpers.js"; // user code
// +opgen:scaffold:imports

const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: "x.my.domain" });
myHelper(mgr); // user code before the marker
// +opgen:scaffold:controllers
mgr.addHealthzCheck("custom", () => true); // user code after the marker

await mgr.start(setupSignalHandler());
`;

const app = {
  module: "./controllers/appcluster.controller.js",
  setupFunction: "setupAppClusterController",
};
const db = {
  module: "./controllers/database.controller.js",
  setupFunction: "setupDatabaseController",
};

describe("registerController", () => {
  it("inserts the import and the registration before the markers, keeping user code", () => {
    expect(
      registerController(MAIN, "src/main.ts", app),
    ).toBe(`import { createManager, managerOptionsFromArgs, setupSignalHandler } from "@opgen/runtime";
import { myHelper } from "./helpers.js"; // user code
import { setupAppClusterController } from "./controllers/appcluster.controller.js";
// +opgen:scaffold:imports

const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: "x.my.domain" });
myHelper(mgr); // user code before the marker
setupAppClusterController(mgr);
// +opgen:scaffold:controllers
mgr.addHealthzCheck("custom", () => true); // user code after the marker

await mgr.start(setupSignalHandler());
`);
  });

  it("is idempotent and keeps registration order", () => {
    const once = registerController(MAIN, "src/main.ts", app);
    expect(registerController(once, "src/main.ts", app)).toBe(once);
    const two = registerController(once, "src/main.ts", db);
    expect(two.indexOf("setupAppClusterController(mgr)")).toBeLessThan(
      two.indexOf("setupDatabaseController(mgr)"),
    );
    expect(two.match(/setupAppClusterController\(mgr\)/g)).toHaveLength(1);
  });

  it("recognises a registration the user moved or reformatted", () => {
    const moved = MAIN.replace(
      "myHelper(mgr); // user code before the marker",
      'import { setupAppClusterController } from "./controllers/appcluster.controller.js";\nif (process.env.X) setupAppClusterController(mgr);',
    );
    expect(registerController(moved, "src/main.ts", app)).toBe(moved);
  });

  it("keeps the marker's indentation", () => {
    const indented = MAIN.replace(
      "// +opgen:scaffold:controllers",
      "  // +opgen:scaffold:controllers",
    );
    expect(registerController(indented, "src/main.ts", app)).toContain(
      "  setupAppClusterController(mgr);\n  // +opgen:scaffold:controllers",
    );
  });

  it("explains a missing insertion point", () => {
    expect(() =>
      registerController(MAIN.replace("// +opgen:scaffold:controllers\n", ""), "src/main.ts", app),
    ).toThrow(
      "src/main.ts: insertion point `// +opgen:scaffold:controllers` not found; put it back on its own line where opgen should add code",
    );
  });

  it("ignores a marker inside a string", () => {
    const tricky = MAIN.replace(
      "// +opgen:scaffold:controllers\n",
      "const s = `\n// +opgen:scaffold:controllers\n`;\n",
    );
    expect(() => registerController(tricky, "src/main.ts", app)).toThrow(/inside a string/);
  });
});
