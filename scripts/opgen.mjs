#!/usr/bin/env node
// `npm run opgen -- <args>` from a checkout: npm runs scripts in the checkout's root, but the user
// means the folder they typed the command in (npm passes it as INIT_CWD), so opgen runs there.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
if (!existsSync(new URL("../dist/cli.js", import.meta.url))) {
  console.error(`opgen: the checkout is not built; run \`npm run build\` in ${root} first`);
  process.exit(1);
}
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
await import("../bin/opgen.js");
