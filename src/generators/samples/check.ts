/**
 * `opgen manifests`' check of config/samples: every object there whose group and kind is one of
 * the project's CRDs is validated against the CRD just generated, as `kubectl apply
 * --validate=strict` would have the API server validate it (ObjectMeta, unknown fields,
 * structural schema, CEL rules), so a sample left stale by a type change is named with its file,
 * line and field. A list document (`kind: List`) is checked item by item, each named by its index.
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
  scope?: string;
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

    /** Where a field (path segments) is written under `root`, or its nearest written parent. */
    const locate = (root: unknown, segments: readonly (string | number)[]): number => {
      let node = root;
      let offset = (root as { range?: [number] } | null)?.range?.[0] ?? 0;
      for (const segment of segments) {
        if (typeof segment === "string" && isMap(node)) {
          const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
          if (!pair) break;
          offset = (pair.key as { range?: [number] }).range?.[0] ?? offset;
          node = pair.value;
        } else if (typeof segment === "number" && isSeq(node)) {
          const item = node.items[segment];
          if (!item) break;
          offset = (item as { range?: [number] }).range?.[0] ?? offset;
          node = item;
        } else break;
      }
      return offset;
    };
    /**
     * Checks one object written at `node`; `where` names it inside a list (`items[1]`). As kubectl
     * reads a file, a document with an `items` list (`kind: List`, an `AppClusterList`) is a list
     * of objects, and an item that is itself a list is refused.
     */
    const checkObject = (node: unknown, obj: unknown, where: string): void => {
      const say = (segments: readonly (string | number)[], message: string) =>
        out.push(at(locate(node, segments), where ? `${where}: ${message}` : message));
      if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return;
      const { apiVersion, kind, items } = obj as {
        apiVersion?: unknown;
        kind?: unknown;
        items?: unknown;
      };
      if (Array.isArray(items)) {
        if (where) {
          say(
            [],
            "a list inside a list: kubectl apply refuses the file (*unstructured.Unstructured is not a list: no Items field in this object)",
          );
          return;
        }
        const seq = isMap(node)
          ? node.items.find((p) => isScalar(p.key) && p.key.value === "items")?.value
          : undefined;
        items.forEach((item, i) => {
          const itemNode = isSeq(seq) ? seq.items[i] : undefined;
          checkObject(itemNode ?? node, item, `items[${i}]`);
        });
        return;
      }
      if (typeof apiVersion !== "string" || typeof kind !== "string") return;
      const slash = apiVersion.lastIndexOf("/");
      const group = slash < 0 ? "" : apiVersion.slice(0, slash);
      const version = apiVersion.slice(slash + 1);
      const crd = byGroupKind.get(`${kind}.${group}`);
      if (!crd) return;

      const served = crd.versions.find((v) => v.name === version && v.served !== false);
      if (!served) {
        const versions = crd.versions.filter((v) => v.served !== false).map((v) => v.name);
        say(
          ["apiVersion"],
          `no matches for kind "${kind}" in version "${apiVersion}": the CRD serves ${versions.join(", ")}`,
        );
        return;
      }
      const schema = served.schema?.openAPIV3Schema;
      if (!schema) return;
      for (const e of metadataProblems(obj as Record<string, unknown>, crd, validation, status))
        say(e.segments, e.message);
      const result = validation.validateCustomResource(obj as Record<string, unknown>, schema);
      for (const field of result.unknownFields) say(segmentsOf(field), `unknown field "${field}"`);
      for (const e of result.errors) say(segmentsOf(e.field ?? ""), status.fieldErrorString(e));
    };

    for (const doc of docs) {
      if (doc.errors.length) {
        const e = doc.errors[0]!;
        out.push(at(e.pos[0], `not valid YAML: ${e.message.split("\n")[0]}`));
        continue;
      }
      checkObject(doc.contents, doc.toJS(), "");
    }
  }
  return out;
}

/** A field path as kube prints it (`spec.items[0].name`), split into segments. */
function segmentsOf(path: string): (string | number)[] {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
    m[2] !== undefined ? Number(m[2]) : m[1]!,
  );
}

/**
 * ObjectMeta as the API server validates a custom resource's (NameIsDNSSubdomain names):
 * kubectl fills a namespaced object's namespace from its context, and the server drops the
 * namespace of a cluster-scoped one, so neither case is refused; the latter is still named,
 * as the sample says something that does not happen.
 */
function metadataProblems(
  obj: Record<string, unknown>,
  crd: CrdSpec,
  validation: typeof import("@opgen/apimachinery/validation"),
  status: typeof import("@opgen/apimachinery/status"),
): { segments: (string | number)[]; message: string }[] {
  const problems: { segments: (string | number)[]; message: string }[] = [];
  const namespaced = crd.scope !== "Cluster";
  const metadata = obj.metadata;
  const meta =
    typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)
      ? (metadata as Record<string, unknown>)
      : {};
  if (!namespaced && meta.namespace) {
    problems.push({
      segments: ["metadata", "namespace"],
      message: `metadata.namespace: ignored: ${crd.names.kind} is cluster-scoped, and the API server drops the namespace`,
    });
  }
  const checked = namespaced
    ? { ...meta, namespace: meta.namespace || "default" }
    : { ...meta, namespace: undefined };
  for (const e of validation.objectMetaErrors(checked, { namespaced, nameRule: "subdomain" })) {
    // A label or annotation error names the map; point at the offending entry.
    const path = e.field ?? "metadata";
    const segments: (string | number)[] = segmentsOf(path);
    const entries = meta[path.slice("metadata.".length)];
    if (
      e.type === "FieldValueInvalid" &&
      (path === "metadata.labels" || path === "metadata.annotations") &&
      entries
    ) {
      const map = entries as Record<string, unknown>;
      const key =
        typeof e.value === "string" && e.value in map
          ? e.value
          : Object.keys(map).find((k) => map[k] === e.value);
      if (key !== undefined) segments.push(key);
    }
    problems.push({ segments, message: status.fieldErrorString(e) });
  }
  return problems;
}
