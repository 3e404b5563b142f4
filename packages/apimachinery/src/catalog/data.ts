/**
 * Reads the generated catalog data (`packages/apimachinery/data`, made by
 * scripts/catalog/generate.mjs) lazily and synchronously: one folder per Kubernetes minor
 * (`data/<minor>/`), each file parsed on first use and kept, so an operator that only resolves a
 * few kinds never parses the definitions or the descriptions. The folder sits beside `src/` and
 * `dist/`, so the same relative URL works from both.
 */
import { readdirSync, readFileSync } from "node:fs";

const DATA = new URL("../../data/", import.meta.url);
const cache = new Map<string, unknown>();

/** The parsed JSON file at `path` under the data folder, or undefined when there is none. */
function read<T>(path: string): T | undefined {
  if (cache.has(path)) return cache.get(path) as T | undefined;
  let value: T | undefined;
  try {
    value = JSON.parse(readFileSync(new URL(path, DATA), "utf8")) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    value = undefined;
  }
  cache.set(path, value);
  return value;
}

/** One minor's data folder. */
export interface CatalogData {
  /** The minor, e.g. the `1.36` of `data/1.36/`. */
  readonly minor: string;
  /** The parsed JSON file at `path` under the minor's folder, or undefined when there is none. */
  read<T>(path: string): T | undefined;
  /** The names of the files in a folder of the minor's folder (sorted), read once. */
  list(folder: string): readonly string[];
}

/** The minors the data covers and the one used when none is named (`data/versions.json`). */
export interface CatalogVersions {
  readonly default: string;
  readonly minors: readonly string[];
}

export function catalogVersions(): CatalogVersions {
  const versions = read<CatalogVersions>("versions.json");
  if (!versions)
    throw new Error("@opgen/apimachinery: the catalog data (data/versions.json) is missing");
  return versions;
}

/** The data of a minor the catalog covers (callers check the minor against catalogVersions). */
export function catalogData(minor: string): CatalogData {
  const prefix = `${minor}/`;
  return {
    minor,
    read: <T>(path: string) => read<T>(prefix + path),
    list(folder: string): readonly string[] {
      const key = `${prefix}${folder}/`;
      if (!cache.has(key)) cache.set(key, readdirSync(new URL(key, DATA)).sort());
      return cache.get(key) as string[];
    },
  };
}

/** The minor used when a program names none (`data/versions.json`'s default). */
export function defaultCatalogMinor(): string {
  return catalogVersions().default;
}
