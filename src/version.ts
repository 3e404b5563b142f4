import { readFileSync } from "node:fs";
import { packageRoot } from "./util/package-root.js";

/** The version of the opgen package this code was loaded from. */
export function opgenVersion(): string {
  const pkg = JSON.parse(readFileSync(`${packageRoot()}/package.json`, "utf8")) as {
    version: string;
  };
  return pkg.version;
}
