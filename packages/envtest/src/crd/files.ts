/**
 * Reads manifests from files or directories (`.yaml`, `.yml`, `.json`; multi-document YAML), as
 * controller-runtime's `envtest.ReadCRDFiles` does: CRD documents, or webhook configurations.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { KubeObject } from "../api/types.js";

export function readCrdFiles(paths: string[]): KubeObject[] {
  return readManifestFiles(
    paths,
    (o) => o.kind === "CustomResourceDefinition",
    // Like Kubebuilder's scaffolded suite (ErrorIfCRDPathMissing: true): a typo must not pass silently.
    (p) => `CRD path ${p} does not exist (run your CRD generator, or fix crdDirectoryPaths)`,
  );
}

/** The documents of the manifests under `paths` that `keep` accepts. */
export function readManifestFiles(
  paths: string[],
  keep: (o: KubeObject) => boolean,
  missing: (path: string) => string,
): KubeObject[] {
  const files: string[] = [];
  for (const p of paths) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(p);
    } catch {
      throw new Error(missing(p));
    }
    if (st.isDirectory()) {
      for (const f of readdirSync(p).sort()) {
        if (/\.(ya?ml|json)$/.test(f) && statSync(join(p, f)).isFile()) files.push(join(p, f));
      }
    } else files.push(p);
  }
  const out: KubeObject[] = [];
  for (const f of files) {
    for (const doc of parseAllDocuments(readFileSync(f, "utf8"))) {
      if (doc.errors.length > 0) throw new Error(`${f}: ${doc.errors[0]!.message}`);
      const v = doc.toJS() as KubeObject | null;
      if (v && typeof v === "object" && keep(v)) out.push(v);
    }
  }
  return out;
}
