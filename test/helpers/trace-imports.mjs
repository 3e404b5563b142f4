// Registers a module resolve hook that appends every resolved URL to $OPGEN_TRACE_IMPORTS, so a
// test can prove which packages a command loads (e.g. that `opgen --help` never loads ts-morph).
import { register } from "node:module";

register(new URL("./trace-imports-hooks.mjs", import.meta.url), {
  data: { file: process.env.OPGEN_TRACE_IMPORTS },
});
