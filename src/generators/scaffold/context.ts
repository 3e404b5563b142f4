/**
 * Values every scaffold template shares: the license header, the dependency specs of the new
 * project and the versions of its tools, derived once from the opgen package that runs.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../util/package-root.js";

/** @kubernetes/client-node 2.x needs Node 22; the runtime and scaffold stay on 1.4 (a test keeps them in step). */
export const CLIENT_NODE_VERSION = "1.4.0";

export type License = "apache2" | "none";

export interface DependencySpecs {
  runtime: string;
  envtest: string;
  cli: string;
  /**
   * Where @opgen/apimachinery (a dependency of the runtime and envtest) comes from, when the
   * registry cannot supply it: a checkout or tarballs. "" when the registry resolves it.
   */
  apimachinery: string;
}

export interface ToolVersions {
  typescript: string;
  vitest: string;
  typesNode: string;
  clientNode: string;
  /** The bundler of `npm run bundle` (the image's single-file operator). */
  esbuild: string;
  /** The YAML library of `npm run build-installer` (its image edit keeps the kustomization's comments). */
  yaml: string;
}

interface OpgenPackageJson {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function opgenPackage(): OpgenPackageJson {
  return JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as OpgenPackageJson;
}

/** True when opgen runs from a source checkout (the sibling workspace packages are present). */
export function isSourceCheckout(root = packageRoot()): boolean {
  return (
    existsSync(join(root, "packages", "runtime", "package.json")) &&
    existsSync(join(root, "packages", "envtest", "package.json")) &&
    existsSync(join(root, "packages", "apimachinery", "package.json"))
  );
}

/**
 * Where the new project gets opgen's packages from, in order: explicit flags, environment
 * variables, `file:` links to this source checkout, or the registry at opgen's own version.
 */
export function resolveDependencySpecs(flags: Partial<DependencySpecs> = {}): DependencySpecs {
  const root = packageRoot();
  const version = opgenPackage().version;
  const local = isSourceCheckout(root);
  const fallback = (pkgDir: string) => (local ? `file:${join(root, pkgDir)}` : `^${version}`);
  const apimachinery =
    flags.apimachinery ??
    process.env.OPGEN_APIMACHINERY_SPEC ??
    (local ? `file:${join(root, "packages/apimachinery")}` : "");
  return {
    runtime: flags.runtime ?? process.env.OPGEN_RUNTIME_SPEC ?? fallback("packages/runtime"),
    envtest: flags.envtest ?? process.env.OPGEN_ENVTEST_SPEC ?? fallback("packages/envtest"),
    cli: flags.cli ?? process.env.OPGEN_CLI_SPEC ?? (local ? `file:${root}` : `^${version}`),
    apimachinery,
  };
}

/** Versions of the dev tools a new project pins: the ones opgen itself is built and tested with. */
export function toolVersions(): ToolVersions {
  const pkg = opgenPackage();
  const need = (name: string, kind: "dependencies" | "devDependencies" = "devDependencies") => {
    const v = pkg[kind]?.[name];
    if (!v) throw new Error(`opgen's package.json has no ${kind.slice(0, -3)}y ${name}`);
    return v;
  };
  return {
    typescript: need("typescript"),
    vitest: need("vitest"),
    typesNode: need("@types/node"),
    clientNode: CLIENT_NODE_VERSION,
    esbuild: need("esbuild"),
    yaml: need("yaml", "dependencies"),
  };
}

/** The comment block opening every generated TypeScript file ("" when the license is none). */
export function licenseHeader(
  license: License,
  owner: string,
  year = new Date().getFullYear(),
): string {
  if (license === "none") return "";
  return `/*
Copyright ${year} ${owner}.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

`;
}

export function spdxLicense(license: License): string {
  return license === "apache2" ? "Apache-2.0" : "UNLICENSED";
}

/** Kubebuilder's leader election id shape: `<8 hex>.<domain>`, stable for a project. */
export function leaderElectionId(projectName: string, domain: string): string {
  const hash = createHash("sha256").update(`${projectName}.${domain}`).digest("hex").slice(0, 8);
  return `${hash}.${domain}`;
}
