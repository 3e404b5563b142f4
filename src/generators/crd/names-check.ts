/**
 * The names kube-apiserver checks when a CRD is created (`apiextensions` validation) and the
 * collisions only the generator can see, refused at the kind's declaration: versions that are not
 * DNS-1035 labels, groups that are not DNS-1123 subdomains with a dot, plurals, singulars and
 * short names that are not lowercase DNS-1123 labels, kinds the Kubernetes machinery already
 * registers in every group version (the `*List` kinds, Status, the option kinds, ObjectMeta ...),
 * two kinds that would be one CRD, and a second API group in a single-group project.
 */
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from "@opgen/apimachinery/names";
import type { SourcePos } from "../../markers/types.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import type { AssembledCrd, KindVersion } from "./assemble.js";

/** Kinds metav1.AddToGroupVersion registers in every group version, and metav1's own types. */
const RESERVED_KINDS = new Set([
  "Status",
  "WatchEvent",
  "ListOptions",
  "GetOptions",
  "DeleteOptions",
  "CreateOptions",
  "UpdateOptions",
  "PatchOptions",
  "ObjectMeta",
  "TypeMeta",
  "ListMeta",
  "List",
]);

/**
 * Why kube-apiserver (or the Kubernetes machinery every group version shares) refuses `kind`,
 * or undefined; the one rule `opgen manifests` and `opgen create api --kind` both apply.
 */
export function kindNameProblem(kind: string): string | undefined {
  if (kind.endsWith("List") && kind !== "List") {
    return `a name ending in "List" is the list kind of ${kind.slice(0, -4)} in every API group`;
  }
  if (RESERVED_KINDS.has(kind)) return `Kubernetes registers ${kind} in every API group version`;
  const errs = isDNS1035Label(kind.toLowerCase());
  if (errs.length) return `the lower-cased kind must be a DNS-1035 label: ${errs[0]}`;
  return undefined;
}

function error(v: KindVersion, message: string): Diagnostic {
  return { severity: "error", ...v.pos, message };
}

/**
 * A version that is not a DNS-1035 label and a group that is not a DNS-1123 subdomain with a dot,
 * at their declaration in groupversion.ts (so once, whatever the kinds of the folder), else at
 * the kind.
 */
function groupVersionProblems(v: KindVersion): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (pos: SourcePos | undefined, message: string): Diagnostic =>
    pos ? { severity: "error", ...pos, message } : error(v, `kind ${v.kind}: ${message}`);
  const versionErrs = isDNS1035Label(v.version);
  if (versionErrs.length) {
    const source = v.versionFromFolder ? " (the folder's name: no @versionName is given)" : "";
    out.push(
      at(
        v.versionPos,
        `version "${v.version}"${source} must be a DNS-1035 label such as v1 or v1beta1: ${versionErrs[0]}`,
      ),
    );
  }
  if (v.group === "") return out;
  const groupErrs = isDNS1123Subdomain(v.group);
  if (groupErrs.length) {
    out.push(at(v.groupPos, `group "${v.group}" must be a DNS-1123 subdomain: ${groupErrs[0]}`));
  } else if (!v.group.includes(".")) {
    out.push(
      at(
        v.groupPos,
        `group "${v.group}" should be a domain with at least one dot, as kube-apiserver requires (e.g. ${v.group}.example.com)`,
      ),
    );
  }
  return out;
}

/** Checks each declared kind version and the CRDs they assemble into. */
export function nameProblems(
  versions: readonly KindVersion[],
  crds: readonly AssembledCrd[],
  project: { multigroup: boolean } | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seenGroups = new Map<string, KindVersion>();
  for (const v of versions) {
    const kindProblem = kindNameProblem(v.kind);
    if (kindProblem) out.push(error(v, `kind ${v.kind}: ${kindProblem}; rename the kind`));
    out.push(...groupVersionProblems(v));
    if (v.group !== "" && !seenGroups.has(v.group)) seenGroups.set(v.group, v);
  }
  if (project && !project.multigroup && seenGroups.size > 1) {
    const [first, ...others] = [...seenGroups.values()];
    for (const v of others) {
      out.push(
        error(
          v,
          `kind ${v.kind}: group ${v.group} is a second API group, but this project is single-group (its PROJECT has no multigroup: true; ${first!.kind} is in ${first!.group}); move the kind into ${first!.group}, or make the project multi-group (opgen init --multigroup, or multigroup: true in PROJECT with APIs under src/api/<group>/<version>)`,
        ),
      );
    }
  }
  const byName = new Map<string, AssembledCrd>();
  for (const crd of crds) {
    const at = versions.find((v) => v.kind === crd.kind && v.group === crd.group)!;
    const names = (crd.object.spec as { names: Record<string, unknown> }).names;
    for (const [field, value] of [
      ["plural", names.plural],
      ["singular", names.singular],
      ...(((names.shortNames as string[] | undefined) ?? []).map((s) => ["shortName", s]) as [
        string,
        unknown,
      ][]),
    ] as [string, unknown][]) {
      const text = String(value);
      const errs = isDNS1123Label(text);
      if (errs.length) {
        out.push(
          error(
            at,
            `kind ${crd.kind}: ${field} "${text}" must be a lowercase DNS-1123 label (@resource path=, singular=, shortName=): ${errs[0]}`,
          ),
        );
      }
    }
    const name = `${crd.plural}.${crd.group}`;
    const other = byName.get(name);
    if (other) {
      const first = versions.find((v) => v.kind === other.kind && v.group === other.group)!;
      out.push(
        error(
          at,
          `kind ${crd.kind}: its CRD would be ${name}, the CRD of kind ${other.kind} (${first.pos.file}:${first.pos.line}); give one of them another @resource path=`,
        ),
      );
    } else byName.set(name, crd);
  }
  return out;
}
