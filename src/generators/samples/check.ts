/**
 * `opgen manifests`' check of config/samples: every object there whose group and kind is one of
 * the project's CRDs is validated against the CRD just generated, as `kubectl apply
 * --validate=strict` would have the API server validate it (unknown fields, structural schema,
 * CEL rules), so a sample left stale by a type change is named with its file, line and field.
 * The validator (CEL, YAML parser) is loaded only when there are samples to read.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { JSONSchemaProps } from "@opgen/apimachinery/schema";
import type { Diagnostic } from "../../source/diagnostics.js";

export const SAMPLES_DIR = "config/samples";

/** The CRDs to check against: each generated CustomResourceDefinition object. */
export type CrdObject = Record<string, unknown>;

interface CrdSpec {
  group: string;
  names: { kind: string };
  versions: { name: string; served?: boolean; schema?: { openAPIV3Schema?: JSONSchemaProps } }[];
}

/** The sample files (project-relative, sorted): YAML under config/samples but kustomizations. */
export function sampleFiles(projectDir: string, dir = SAMPLES_DIR): string[] {
  const abs = join(projectDir, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory() && !entry.name.startsWith("."))
      out.push(...sampleFiles(projectDir, rel));
    else if (
      entry.isFile() &&
      /\.ya?ml$/.test(entry.name) &&
      !/^kustomization\.ya?ml$/i.test(entry.name)
    )
      out.push(rel);
  }
  return out.sort();
}

/** Warnings for every sample object the generated CRDs refuse. */
export async function checkSamples(
  projectDir: string,
  crds: readonly CrdObject[],
): Promise<Diagnostic[]> {
  const files = sampleFiles(projectDir);
  if (files.length === 0 || crds.length === 0) return [];
  const [{ LineCounter, parseAllDocuments, isMap, isSeq, isScalar }, validation, status] =
    await Promise.all([
      import("yaml"),
      import("@opgen/apimachinery/validation"),
      import("@opgen/apimachinery/status"),
    ]);
  const byGroupKind = new Map<string, CrdSpec>();
  for (const crd of crds) {
    const spec = crd.spec as CrdSpec;
    byGroupKind.set(`${spec.names.kind}.${spec.group}`, spec);
  }
  const out: Diagnostic[] = [];
  for (const file of files) {
    const text = readFileSync(join(projectDir, file), "utf8");
    const lines = new LineCounter();
    const docs = parseAllDocuments(text, { lineCounter: lines });
    const at = (offset: number, message: string): Diagnostic => {
      const { line, col } = lines.linePos(offset);
      return { severity: "warning", file, line, column: col, message };
    };
    if (!Array.isArray(docs)) continue; // an empty file
    for (const doc of docs) {
      if (doc.errors.length) {
        const e = doc.errors[0]!;
        out.push(at(e.pos[0], `not valid YAML: ${e.message.split("\n")[0]}`));
        continue;
      }
      const obj = doc.toJS() as unknown;
      if (typeof obj !== "object" || obj === null || Array.isArray(obj)) continue;
      const { apiVersion, kind } = obj as { apiVersion?: unknown; kind?: unknown };
      if (typeof apiVersion !== "string" || typeof kind !== "string") continue;
      const slash = apiVersion.lastIndexOf("/");
      const group = slash < 0 ? "" : apiVersion.slice(0, slash);
      const version = apiVersion.slice(slash + 1);
      const crd = byGroupKind.get(`${kind}.${group}`);
      if (!crd) continue;

      /** Where a field path (`spec.items[0].name`) is written, or its nearest written parent. */
      const locate = (path: string): number => {
        let node: unknown = doc.contents;
        let offset = (doc.contents as { range?: [number] } | null)?.range?.[0] ?? 0;
        for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
          if (m[1] !== undefined && isMap(node)) {
            const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === m[1]);
            if (!pair) break;
            offset = (pair.key as { range?: [number] }).range?.[0] ?? offset;
            node = pair.value;
          } else if (m[2] !== undefined && isSeq(node)) {
            const item = node.items[Number(m[2])];
            if (!item) break;
            offset = (item as { range?: [number] }).range?.[0] ?? offset;
            node = item;
          } else break;
        }
        return offset;
      };

      const served = crd.versions.find((v) => v.name === version && v.served !== false);
      if (!served) {
        const versions = crd.versions.filter((v) => v.served !== false).map((v) => v.name);
        out.push(
          at(
            locate("apiVersion"),
            `no matches for kind "${kind}" in version "${apiVersion}": the CRD serves ${versions.join(", ")}`,
          ),
        );
        continue;
      }
      const schema = served.schema?.openAPIV3Schema;
      if (!schema) continue;
      const meta = (obj as { metadata?: { name?: unknown; generateName?: unknown } }).metadata;
      if (!meta?.name && !meta?.generateName) {
        out.push(
          at(locate("metadata"), "metadata.name: Required value: name or generateName is required"),
        );
      }
      const result = validation.validateCustomResource(obj as Record<string, unknown>, schema);
      for (const field of result.unknownFields)
        out.push(at(locate(field), `unknown field "${field}"`));
      for (const e of result.errors)
        out.push(at(locate(e.field ?? ""), status.fieldErrorString(e)));
    }
  }
  return out;
}
