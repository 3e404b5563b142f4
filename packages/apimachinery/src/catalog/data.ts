/**
 * Reads the generated catalog data (`packages/apimachinery/data`, made by
 * scripts/catalog/generate.mjs) lazily and synchronously: each file is parsed on first use and
 * kept, so an operator that only resolves a few kinds never parses the definitions or the
 * descriptions. The folder sits beside `src/` and `dist/`, so the same relative URL works from
 * both.
 */
import { readdirSync, readFileSync } from "node:fs";

const DATA = new URL("../../data/", import.meta.url);
const cache = new Map<string, unknown>();

/** The parsed JSON file at `path` under the data folder, or undefined when there is none. */
export function readData<T>(path: string): T | undefined {
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

/** The names of the files in a folder of the data folder (sorted), read once. */
export function listData(folder: string): readonly string[] {
  const key = `${folder}/`;
  if (!cache.has(key)) cache.set(key, readdirSync(new URL(key, DATA)).sort());
  return cache.get(key) as string[];
}
