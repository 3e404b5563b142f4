/**
 * The TypeScript compiler API the RBAC scan parses with: the very instance the CRD generator loads
 * (`loadTypeScript` in ../project-sources.ts, which `require`s the copy ts-morph bundles and so
 * spares the ~0.3 s an ESM import of ts-morph spends scanning it for named exports). Modules take
 * their types from `import type { ts } from "ts-morph"` and their values from here.
 */
import type { ts } from "ts-morph";
import { loadTypeScript } from "../project-sources.js";

export const typescript: typeof ts = await loadTypeScript();
