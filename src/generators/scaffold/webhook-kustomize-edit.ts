/**
 * The config/ edits of `opgen create webhook`, as Kubebuilder's kustomize/v2 webhook scaffold makes
 * them (pkg/plugins/common/kustomize/v2/scaffolds/webhook.go): uncomment the [WEBHOOK] and
 * [CERTMANAGER] parts of config/default/kustomization.yaml, add the CA-injection targets of a
 * conversion CRD, and list the conversion patch in config/crd/kustomization.yaml.
 *
 * config/default is edited as text (uncommenting, so the user's comments and layout stay); a
 * project scaffolded before those commented parts existed gets the missing entries through a
 * structural YAML edit instead. Every edit is idempotent.
 */
import { type Document, isMap, isSeq, parseDocument, type YAMLMap, YAMLSeq } from "yaml";
import { CliError } from "../../util/errors.js";
import { yamlErrorLine } from "../../util/yaml-errors.js";
import { indexOfLines, uncommentBlock, uncommented } from "./uncomment.js";

export interface DefaultKustomizationEdit {
  defaulting: boolean;
  validation: boolean;
  /** CRD names (`<plural>.<group>`) whose conversion needs the cert-manager CA injected. */
  conversionCrds: string[];
  /** Prefix of the insertion-point comments (`+opgen:scaffold:`; Kubebuilder's is `+kubebuilder:scaffold:`). */
  markerPrefix?: string;
}

const c = (lines: string[]): string => lines.map((l) => `#${l}`).join("\n");

const WEBHOOK_RESOURCE = c(["- ../webhook"]);
const CERTMANAGER_RESOURCE = c(["- ../certmanager"]);
const PATCHES = c(["patches:"]);
const WEBHOOK_PATCH = c([
  "- path: manager_webhook_patch.yaml",
  "  target:",
  "    kind: Deployment",
]);
const REPLACEMENTS = c(["replacements:"]);

/** One replacement as Kubebuilder writes it (commented), with its target options. */
function replacement(opts: {
  header?: string;
  sourceLines: string[];
  targetsComment?: string;
  targetSelect: string[];
  fieldPaths: string[];
  delimiter: string;
  index: number;
}): string {
  return c([
    ` - source:${opts.header ? ` # ${opts.header}` : ""}`,
    ...opts.sourceLines.map((l) => `     ${l}`),
    `   targets:${opts.targetsComment ? ` # ${opts.targetsComment}` : ""}`,
    "     - select:",
    ...opts.targetSelect.map((l) => `         ${l}`),
    "       fieldPaths:",
    ...opts.fieldPaths.map((f) => `         - ${f}`),
    "       options:",
    `         delimiter: '${opts.delimiter}'`,
    `         index: ${opts.index}`,
    "         create: true",
  ]);
}

const SERVICE_TO_CERTIFICATE = [
  replacement({
    header: "Uncomment the following block if you have any webhook",
    sourceLines: [
      "kind: Service",
      "version: v1",
      "name: webhook-service",
      "fieldPath: .metadata.name # Name of the service",
    ],
    targetSelect: [
      "kind: Certificate",
      "group: cert-manager.io",
      "version: v1",
      "name: serving-cert",
    ],
    fieldPaths: [".spec.dnsNames.0", ".spec.dnsNames.1"],
    delimiter: ".",
    index: 0,
  }),
  replacement({
    sourceLines: [
      "kind: Service",
      "version: v1",
      "name: webhook-service",
      "fieldPath: .metadata.namespace # Namespace of the service",
    ],
    targetSelect: [
      "kind: Certificate",
      "group: cert-manager.io",
      "version: v1",
      "name: serving-cert",
    ],
    fieldPaths: [".spec.dnsNames.0", ".spec.dnsNames.1"],
    delimiter: ".",
    index: 1,
  }),
].join("\n");

function certificateToConfiguration(kind: string, header: string, nameComment: string): string {
  return [
    replacement({
      header,
      sourceLines: [
        "kind: Certificate",
        "group: cert-manager.io",
        "version: v1",
        `name: serving-cert${nameComment}`,
        "fieldPath: .metadata.namespace # Namespace of the certificate CR",
      ],
      targetSelect: [`kind: ${kind}`],
      fieldPaths: [".metadata.annotations.[cert-manager.io/inject-ca-from]"],
      delimiter: "/",
      index: 0,
    }),
    replacement({
      sourceLines: [
        "kind: Certificate",
        "group: cert-manager.io",
        "version: v1",
        "name: serving-cert",
        "fieldPath: .metadata.name",
      ],
      targetSelect: [`kind: ${kind}`],
      fieldPaths: [".metadata.annotations.[cert-manager.io/inject-ca-from]"],
      delimiter: "/",
      index: 1,
    }),
  ].join("\n");
}

const CERTIFICATE_TO_VALIDATING = certificateToConfiguration(
  "ValidatingWebhookConfiguration",
  "Uncomment the following block if you have a ValidatingWebhook (--programmatic-validation)",
  " # This name should match the one in certificate.yaml",
);
const CERTIFICATE_TO_MUTATING = certificateToConfiguration(
  "MutatingWebhookConfiguration",
  "Uncomment the following block if you have a DefaultingWebhook (--defaulting )",
  "",
);

const TARGETS_COMMENT =
  "Do not remove or uncomment the following scaffold marker; required to generate code for target CRD.";

/** The commented head of a conversion CA-injection replacement, up to its `targets:` line. */
function conversionSourceHead(index: 0 | 1): string {
  return c([
    ` - source:${index === 0 ? " # Uncomment the following block if you have a ConversionWebhook (--conversion)" : ""}`,
    "     kind: Certificate",
    "     group: cert-manager.io",
    "     version: v1",
    "     name: serving-cert",
    `     fieldPath: ${index === 0 ? ".metadata.namespace # Namespace of the certificate CR" : ".metadata.name"}`,
    `   targets: # ${TARGETS_COMMENT}`,
  ]);
}

/** Kubebuilder's KustomizationCAConversionUpdater target for one CRD (commented). */
function conversionTarget(crd: string, index: 0 | 1): string {
  return c([
    "     - select:",
    "         kind: CustomResourceDefinition",
    `         name: ${crd}`,
    "       fieldPaths:",
    "         - .metadata.annotations.[cert-manager.io/inject-ca-from]",
    "       options:",
    "         delimiter: '/'",
    `         index: ${index}`,
    "         create: true",
  ]);
}

/** Returns config/default/kustomization.yaml with the webhook parts switched on. */
export function enableWebhookDefaults(
  text: string,
  file: string,
  edit: DefaultKustomizationEdit,
): string {
  const prefix = edit.markerPrefix ?? "+opgen:scaffold:";
  let out = text;
  const un = (block: string) => {
    out = uncommentBlock(out, block).text;
  };
  un(WEBHOOK_RESOURCE);
  un(PATCHES);
  un(WEBHOOK_PATCH);
  un(CERTMANAGER_RESOURCE);
  un(REPLACEMENTS);
  un(SERVICE_TO_CERTIFICATE);
  if (edit.validation) un(CERTIFICATE_TO_VALIDATING);
  if (edit.defaulting) un(CERTIFICATE_TO_MUTATING);
  for (const crd of edit.conversionCrds) {
    for (const index of [0, 1] as const) {
      out = addConversionTarget(
        out,
        crd,
        index,
        `# ${prefix}crdkustomizecainjection${index === 0 ? "ns" : "name"}`,
      );
    }
  }
  return ensureStructurally(out, file, edit);
}

/**
 * Adds the CRD as a target of the conversion CA-injection replacement at its insertion point:
 * while the replacement is still commented, as Kubebuilder does (insert the commented target,
 * then uncomment the whole block); once it is live (a second conversion CRD, which Kubebuilder
 * cannot add), the target is inserted uncommented.
 */
function addConversionTarget(text: string, crd: string, index: 0 | 1, marker: string): string {
  const markerAt = indexOfLines(text, marker);
  if (markerAt < 0) return text; // ensureStructurally adds what is missing
  const target = conversionTarget(crd, index);
  const head = conversionSourceHead(index);
  const commentedBlock = `${head}\n${target}`;
  const liveHead = uncommented(head);
  // Look only at the replacement that ends at this marker: from its head to the marker.
  const headAt = text.lastIndexOf(head, markerAt);
  if (headAt >= 0 && text.slice(headAt + head.length, markerAt).trim() === "") {
    const inserted = `${text.slice(0, markerAt)}${target}\n${text.slice(markerAt)}`;
    return uncommentBlock(inserted, commentedBlock).text;
  }
  const liveAt = text.lastIndexOf(liveHead, markerAt);
  if (liveAt < 0) return text;
  const between = text.slice(liveAt, markerAt);
  if (between.includes(`\n         name: ${crd}\n`)) return text;
  return `${text.slice(0, markerAt)}${uncommented(target)}\n${text.slice(markerAt)}`;
}

type Replacement = {
  source?: { kind?: string; name?: string; fieldPath?: string };
  targets?: { select?: { kind?: string; name?: string } }[];
};

/** The replacements a webhook project needs, as data (for the structural fallback). */
function requiredReplacements(edit: DefaultKustomizationEdit): object[] {
  const certificate = {
    kind: "Certificate",
    group: "cert-manager.io",
    version: "v1",
    name: "serving-cert",
  };
  const annotation = [".metadata.annotations.[cert-manager.io/inject-ca-from]"];
  const out: object[] = [];
  for (const [index, fieldPath] of [".metadata.name", ".metadata.namespace"].entries()) {
    out.push({
      source: { kind: "Service", version: "v1", name: "webhook-service", fieldPath },
      targets: [
        {
          select: certificate,
          fieldPaths: [".spec.dnsNames.0", ".spec.dnsNames.1"],
          options: { delimiter: ".", index, create: true },
        },
      ],
    });
  }
  const caTargets = (index: number) => {
    const targets: object[] = [];
    if (edit.validation) targets.push({ select: { kind: "ValidatingWebhookConfiguration" } });
    if (edit.defaulting) targets.push({ select: { kind: "MutatingWebhookConfiguration" } });
    for (const crd of edit.conversionCrds) {
      targets.push({ select: { kind: "CustomResourceDefinition", name: crd } });
    }
    return targets.map((t) => ({
      ...t,
      fieldPaths: annotation,
      options: { delimiter: "/", index, create: true },
    }));
  };
  for (const [index, fieldPath] of [".metadata.namespace", ".metadata.name"].entries()) {
    const targets = caTargets(index);
    if (targets.length > 0) out.push({ source: { ...certificate, fieldPath }, targets });
  }
  return out;
}

/**
 * Checks the parsed result and adds, as YAML, whatever the text edits could not switch on (a
 * kustomization without Kubebuilder's commented sections). A complete file is returned unchanged.
 */
function ensureStructurally(text: string, file: string, edit: DefaultKustomizationEdit): string {
  const doc = parseKustomization(text, file);
  let changed = false;
  changed = addToList(doc, "resources", "../webhook", (v) => v === "../webhook") || changed;
  changed = addToList(doc, "resources", "../certmanager", (v) => v === "../certmanager") || changed;
  changed =
    addToList(
      doc,
      "patches",
      { path: "manager_webhook_patch.yaml", target: { kind: "Deployment" } },
      (v) => isMap(v) && v.get("path") === "manager_webhook_patch.yaml",
    ) || changed;
  for (const needed of requiredReplacements(edit) as Replacement[]) {
    const list = listOf(doc, "replacements", file);
    // Kubebuilder splits one source over several replacements (one per webhook type): a target
    // counts as present in any replacement of the same source.
    const sameSource = list.items.filter((item): item is YAMLMap => {
      const src = isMap(item) ? (item.toJSON() as Replacement).source : undefined;
      return (
        src?.kind === needed.source?.kind &&
        src?.name === needed.source?.name &&
        stripDot(src?.fieldPath) === stripDot(needed.source?.fieldPath)
      );
    });
    if (sameSource.length === 0) {
      list.items.push(doc.createNode(needed));
      changed = true;
      continue;
    }
    const have = sameSource.flatMap((r) =>
      ((r.toJSON() as Replacement).targets ?? []).map((t) => t.select),
    );
    for (const target of needed.targets ?? []) {
      const present = have.some(
        (s) => s?.kind === target.select?.kind && (s?.name ?? "") === (target.select?.name ?? ""),
      );
      if (present) continue;
      const into = sameSource[0]!;
      let targets: unknown = into.get("targets", true);
      if (!isSeq(targets)) {
        targets = new YAMLSeq();
        into.set("targets", targets);
      }
      (targets as YAMLSeq).items.push(doc.createNode(target));
      changed = true;
    }
  }
  return changed ? doc.toString({ indentSeq: false, lineWidth: 0 }) : text;
}

function stripDot(path: string | undefined): string | undefined {
  return path?.replace(/^\./, "");
}

function parseKustomization(text: string, file: string): Document {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new CliError(`${yamlErrorLine(file, doc.errors[0]!)}; fix it and run again`);
  }
  if (!isMap(doc.contents)) {
    throw new CliError(`${file}: expected a kustomization mapping; fix it and run again`);
  }
  return doc;
}

function listOf(doc: Document, key: string, file: string): YAMLSeq {
  let list: unknown = doc.get(key, true);
  // `patches:` with only comments under it parses as a null scalar.
  const isNull =
    list === undefined ||
    list === null ||
    (typeof list === "object" && "value" in list && (list as { value: unknown }).value === null);
  if (isNull) {
    list = new YAMLSeq();
    doc.set(key, list);
  }
  if (!isSeq(list)) throw new CliError(`${file}: "${key}" is not a list; fix it and run again`);
  list.flow = false;
  return list;
}

/** Appends `value` to the list `key` unless an item matches; true when the document changed. */
function addToList(
  doc: Document,
  key: string,
  value: unknown,
  matches: (item: unknown) => boolean,
): boolean {
  const list = listOf(doc, key, "kustomization.yaml");
  const present = list.items.some((item) => {
    const v =
      typeof item === "object" && item !== null && "value" in item && !isMap(item)
        ? (item as { value: unknown }).value
        : item;
    return matches(v);
  });
  if (present) return false;
  list.items.push(doc.createNode(value));
  return true;
}

/**
 * config/crd/kustomization.yaml for a conversion webhook: the strategic-merge patch of the CRD in
 * `patches` and kustomizeconfig.yaml in `configurations` (so namePrefix reaches the Service name
 * of the conversion client config), each added once.
 */
export function enableCrdConversionPatch(text: string, file: string, patchPath: string): string {
  const doc = parseKustomization(text, file);
  const hadPatches = doc.has("patches");
  const hadConfigurations = doc.has("configurations");
  let changed = addToList(
    doc,
    "patches",
    { path: patchPath },
    (v) => isMap(v) && v.get("path") === patchPath,
  );
  changed =
    addToList(doc, "configurations", "kustomizeconfig.yaml", (v) => v === "kustomizeconfig.yaml") ||
    changed;
  if (!changed) return text;
  const keyNode = (key: string) =>
    (doc.contents as YAMLMap).items.find((p) => (p.key as { value?: unknown })?.value === key)
      ?.key as { commentBefore?: string; spaceBefore?: boolean } | undefined;
  if (!hadPatches) {
    const k = keyNode("patches");
    if (k) {
      k.spaceBefore = true;
      k.commentBefore =
        " [WEBHOOK] patches here are for enabling the conversion webhook for each CRD";
    }
  }
  if (!hadConfigurations) {
    const k = keyNode("configurations");
    if (k) {
      k.spaceBefore = true;
      k.commentBefore =
        " [WEBHOOK] the following config is for teaching kustomize how to do kustomization for CRDs.";
    }
  }
  return doc.toString({ indentSeq: false, lineWidth: 0 });
}

/**
 * `entry` first in the kustomization's `resources` unless it is listed: allow-webhook-traffic.yaml
 * in config/network-policy (where Kubebuilder inserts it), manifests.yaml in config/webhook once
 * the project has an admission webhook (a conversion-only project has no manifests.yaml).
 */
export function addResourceFirst(text: string, file: string, entry: string): string {
  const doc = parseKustomization(text, file);
  const list = listOf(doc, "resources", file);
  if (list.items.some((i) => (i as { value?: unknown })?.value === entry)) return text;
  list.items.unshift(doc.createNode(entry));
  return doc.toString({ indentSeq: false, lineWidth: 0 });
}
