/**
 * The TypeScript compiler API as a module value, for modules that walk syntax trees (the RBAC
 * scan): the very instance `loadTypeScript` in project-sources.ts loads (it `require`s the copy
 * ts-morph bundles, sparing the ~0.3 s an ESM import of ts-morph spends scanning it for named
 * exports). Importing this module loads TypeScript, so import it lazily. Modules take their
 * types from `import type { ts } from "ts-morph"` and their values from here.
 */
import type { ts } from "ts-morph";
import { loadTypeScript } from "./project-sources.js";

export const typescript: typeof ts = await loadTypeScript();
