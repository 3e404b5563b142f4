#!/usr/bin/env node
/**
 * Generates @opgen/apimachinery's Kubernetes 1.32 catalog from the upstream API data kept in the
 * repository's reference/kubernetes (override with OPGEN_K8S_REFERENCE; `npm run sync:shared`
 * refreshes that folder from ../shared/reference/kubernetes):
 *
 * - data/resources.json: every REST resource the OpenAPI document serves (discovery facts: kind,
 *   plural, scope, verbs, subresources) plus short names and categories from discovery-overlay.json
 *   (the OpenAPI document does not carry those);
 * - data/defs/<package>.json: each definition's structural schema without descriptions, `$ref`s
 *   kept by name, the `+default` values merged in (also into the types that embed the defaulted
 *   type inline, which the protobuf schemas reveal), and two facts only controller-gen needs:
 *   `x-opgen-default-ref` on defaults written as `+default=ref(...)` (controller-gen-overlay.json)
 *   and `x-opgen-inline-map-type`, the map type an inline-embedded type brings along when
 *   controller-gen flattens it;
 * - data/descriptions/<package>.json: the descriptions, apart, so code that never prints them
 *   (an operator) never reads them;
 * - data/proto.json: the protobuf schemas as a protobufjs JSON descriptor (so envtest decodes
 *   kubectl's protobuf bodies without parsing .proto files), each field annotated with what
 *   the JSON form needs and the schemas do not say: `inline` (an embedded type whose fields the
 *   JSON flattens into its owner) and `keepZero` (a zero on the wire is a value, not "unset").
 *
 * `node scripts/catalog/generate.mjs` writes the files; `--check` compares them with what is
 * committed and exits 1 naming the stale files. Output is deterministic (sorted keys).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const reference = resolve(process.env.OPGEN_K8S_REFERENCE ?? join(repo, "reference", "kubernetes"));
const outDir = join(repo, "packages", "apimachinery", "data");
const check = process.argv.includes("--check");

function readJson(path) {
  if (!existsSync(path)) {
    console.error(
      `catalog: ${path} not found; set OPGEN_K8S_REFERENCE to the folder holding 1.32/swagger.json`,
    );
    process.exit(2);
  }
  return JSON.parse(readFileSync(path, "utf8"));
}

const swagger = readJson(join(reference, "1.32", "swagger.json"));
const defaults = readJson(join(reference, "defaults-1.32.json"));
const overlay = readJson(join(here, "discovery-overlay.json"));
const cgOverlay = readJson(join(here, "controller-gen-overlay.json"));

const REF = "#/definitions/";
/** The package of a definition: its name without the type, e.g. `io.k8s.api.core.v1`. */
const packageOf = (name) => name.slice(0, name.lastIndexOf("."));

// ---- resources ------------------------------------------------------------------------------

const ACTION_VERBS = {
  get: "get",
  list: "list",
  watch: "watch",
  watchlist: "watch",
  post: "create",
  put: "update",
  patch: "patch",
  delete: "delete",
  deletecollection: "deletecollection",
  connect: "connect",
};
const pathRe =
  /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(watch\/)?(namespaces\/\{namespace\}\/)?([a-z0-9-]+)(\/\{name\})?(?:\/([a-z]+))?$/;

const resources = new Map();
for (const [path, item] of Object.entries(swagger.paths)) {
  const m = pathRe.exec(path);
  if (!m) continue;
  const [, coreVersion, group = "", apiVersion, watch, namespaced, plural, named, sub] = m;
  const version = coreVersion ?? apiVersion;
  // `/api/v1/namespaces/{name}` matches as resource "namespaces" named; "{namespace}" paths of
  // namespaces' subresources (`/namespaces/{name}/status`) likewise.
  const key = `${group}/${version}/${plural}`;
  let r = resources.get(key);
  if (!r) {
    r = {
      group,
      version,
      plural,
      kind: "",
      namespaced: false,
      verbs: new Set(),
      subresources: new Map(),
    };
    resources.set(key, r);
  }
  if (namespaced) r.namespaced = true;
  for (const op of Object.values(item)) {
    if (typeof op !== "object" || !op["x-kubernetes-action"]) continue;
    const verb = ACTION_VERBS[op["x-kubernetes-action"]];
    const gvk = op["x-kubernetes-group-version-kind"];
    if (sub) {
      let s = r.subresources.get(sub);
      if (!s) {
        s = { name: sub, verbs: new Set() };
        r.subresources.set(sub, s);
      }
      if (verb) s.verbs.add(verb);
      if (gvk && !s.kind)
        Object.assign(s, { group: gvk.group, version: gvk.version, kind: gvk.kind });
      continue;
    }
    if (watch) {
      r.verbs.add("watch");
      continue;
    }
    if (verb) r.verbs.add(verb);
    if (
      gvk &&
      !r.kind &&
      !(named === undefined && op["x-kubernetes-action"] === "deletecollection")
    ) {
      r.kind = gvk.kind;
    }
  }
}

function stability(version) {
  if (/^v\d+$/.test(version)) return "ga";
  return /beta/.test(version) ? "beta" : "alpha";
}

/** kube's version priority: GA before beta before alpha, higher numbers first. */
function versionRank(v) {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return [3, 0, 0];
  const level = m[2] === undefined ? 0 : m[2] === "beta" ? 1 : 2;
  return [level, -Number(m[1]), -Number(m[3] ?? 0)];
}
function compareVersions(a, b) {
  const x = versionRank(a);
  const y = versionRank(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return a < b ? -1 : a > b ? 1 : 0;
}

const byGroup = new Map();
for (const r of resources.values()) {
  if (!r.kind) continue;
  if (!byGroup.has(r.group)) byGroup.set(r.group, new Set());
  byGroup.get(r.group).add(r.version);
}
const preferred = new Map();
for (const [group, versions] of byGroup)
  preferred.set(group, [...versions].sort(compareVersions)[0]);

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const resourceList = [...resources.values()]
  .filter((r) => r.kind)
  .sort(
    (a, b) =>
      cmp(a.group, b.group) || compareVersions(a.version, b.version) || cmp(a.plural, b.plural),
  )
  .map((r) => {
    const gr = `${r.group}/${r.plural}`;
    const def = definitionNameFor(r.group, r.version, r.kind);
    // The API data marks a deprecated kind only in its description; kube warns on every request.
    const deprecatedIn = def
      ? /Deprecated: This API is deprecated in v(\d+\.\d+)\+/.exec(
          swagger.definitions[def].description ?? "",
        )?.[1]
      : undefined;
    return {
      group: r.group,
      version: r.version,
      kind: r.kind,
      plural: r.plural,
      singular: r.kind.toLowerCase(),
      namespaced: r.namespaced,
      verbs: [...r.verbs].sort(),
      shortNames: overlay.shortNames[gr] ?? [],
      categories: overlay.categories[gr] ?? [],
      subresources: [...r.subresources.values()]
        .sort((a, b) => cmp(a.name, b.name))
        .map((s) => ({
          name: s.name,
          ...(s.kind ? { group: s.group, version: s.version, kind: s.kind } : {}),
          verbs: [...s.verbs].sort(),
        })),
      stability: stability(r.version),
      preferred: preferred.get(r.group) === r.version,
      ...(def ? { definition: def } : {}),
      ...(deprecatedIn ? { deprecatedIn } : {}),
    };
  });

for (const key of [...Object.keys(overlay.shortNames), ...Object.keys(overlay.categories)]) {
  if (!resourceList.some((r) => `${r.group}/${r.plural}` === key)) {
    console.error(
      `catalog: discovery-overlay.json names ${key}, which the API data does not serve`,
    );
    process.exit(2);
  }
}

function definitionNameFor(group, version, kind) {
  for (const [name, def] of Object.entries(swagger.definitions)) {
    const gvks = def["x-kubernetes-group-version-kind"];
    if (gvks?.some((g) => g.group === group && g.version === version && g.kind === kind))
      return name;
  }
  return undefined;
}

// ---- definitions ----------------------------------------------------------------------------

/** Swagger's `+default` table is keyed `core/v1.ContainerPort`; definitions `io.k8s.api.core.v1.ContainerPort`. */
const defaultsByDefinition = new Map();
for (const [key, fields] of Object.entries(defaults)) {
  const m = /^([a-z0-9.]+)\/(v[a-z0-9]+)\.([A-Za-z0-9]+)$/.exec(key);
  const name = m && `io.k8s.api.${m[1]}.${m[2]}.${m[3]}`;
  if (!name || !swagger.definitions[name]) {
    console.error(`catalog: defaults-1.32.json key ${key} names no definition of the API data`);
    process.exit(2);
  }
  defaultsByDefinition.set(name, fields);
}

const KEEP = new Set([
  "type",
  "format",
  "enum",
  "required",
  "items",
  "additionalProperties",
  "properties",
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
  "x-kubernetes-patch-strategy",
  "x-kubernetes-patch-merge-key",
  "x-kubernetes-int-or-string",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-group-version-kind",
  "x-kubernetes-unions",
]);

/** A schema node without descriptions, `$ref` shortened to the definition name. */
function structural(node) {
  if (Array.isArray(node)) return node.map(structural);
  if (typeof node !== "object" || node === null) return node;
  const out = {};
  for (const key of Object.keys(node).sort()) {
    const value = node[key];
    if (key === "$ref") out.$ref = value.slice(REF.length);
    else if (key === "allOf" && value.length === 1 && value[0].$ref)
      out.$ref = value[0].$ref.slice(REF.length);
    else if (key === "properties") {
      out.properties = {};
      for (const p of Object.keys(value).sort()) out.properties[p] = structural(value[p]);
    } else if (key === "items" || key === "additionalProperties") out[key] = structural(value);
    else if (KEEP.has(key)) out[key] = value;
  }
  return out;
}

/**
 * Inline embeddings (`LocalObjectReference \`json:",inline"\``): the OpenAPI document flattens
 * them without a trace, the protobuf schemas keep them as a field of the embedded type whose name
 * is no JSON property. Returns definition → the definitions it embeds inline.
 */
function inlineEmbeddings() {
  const out = new Map();
  const protoRoot = join(reference, "proto");
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? walk(join(dir, e.name))
        : e.name.endsWith(".proto")
          ? [join(dir, e.name)]
          : [],
    );
  const defPackage = (protoPackage) => protoPackage.replace(/^k8s\.io\./, "io.k8s.");
  for (const file of walk(protoRoot).sort()) {
    const text = readFileSync(file, "utf8");
    const pkg = defPackage(/^package ([\w.]+);/m.exec(text)[1]);
    for (const [, message, body] of text.matchAll(/^message (\w+) \{([\s\S]*?)^\}/gm)) {
      const owner = swagger.definitions[`${pkg}.${message}`];
      if (!owner?.properties) continue;
      for (const [, type, field] of body.matchAll(/^\s*optional ([\w.]+) (\w+) = \d+;/gm)) {
        if (field in owner.properties) continue;
        const dot = type.lastIndexOf(".");
        const name =
          dot < 0 ? `${pkg}.${type}` : `${defPackage(type.slice(0, dot))}.${type.slice(dot + 1)}`;
        const embedded = swagger.definitions[name];
        if (!embedded?.properties) continue;
        if (!Object.keys(embedded.properties).every((p) => p in owner.properties)) continue;
        const ownerName = `${pkg}.${message}`;
        if (!out.has(ownerName)) out.set(ownerName, []);
        out.get(ownerName).push(name);
      }
    }
  }
  return out;
}
const embeddings = inlineEmbeddings();

const refDefaults = new Map();
for (const [key, fields] of Object.entries(cgOverlay.refDefaults)) {
  const m = /^([a-z0-9.]+)\/(v[a-z0-9]+)\.([A-Za-z0-9]+)$/.exec(key);
  refDefaults.set(`io.k8s.api.${m[1]}.${m[2]}.${m[3]}`, new Set(fields));
}

/** The +default values of a definition, with those of the types it embeds inline. */
function defaultsOf(name) {
  const own = { ...(defaultsByDefinition.get(name) ?? {}) };
  const refs = new Set(refDefaults.get(name) ?? []);
  for (const inner of embeddings.get(name) ?? []) {
    const inherited = defaultsOf(inner);
    for (const [field, value] of Object.entries(inherited.values))
      if (!(field in own)) own[field] = value;
    for (const field of inherited.refs) refs.add(field);
  }
  return { values: own, refs };
}

const defsByPackage = new Map();
const descByPackage = new Map();
for (const name of Object.keys(swagger.definitions).sort()) {
  const def = swagger.definitions[name];
  const pkg = packageOf(name);
  const s = structural(def);
  const fieldDefaults = defaultsOf(name);
  for (const [field, value] of Object.entries(fieldDefaults.values)) {
    if (!s.properties?.[field]) {
      console.error(`catalog: default for ${name}.${field}, which has no such property`);
      process.exit(2);
    }
    s.properties[field].default = value;
    if (fieldDefaults.refs.has(field)) s.properties[field]["x-opgen-default-ref"] = true;
  }
  if (!s["x-kubernetes-map-type"]) {
    for (const inner of embeddings.get(name) ?? []) {
      const mapType = swagger.definitions[inner]["x-kubernetes-map-type"];
      if (mapType) s["x-opgen-inline-map-type"] = mapType;
    }
  }
  if (!defsByPackage.has(pkg)) defsByPackage.set(pkg, {});
  defsByPackage.get(pkg)[name.slice(pkg.length + 1)] = s;

  const desc = {};
  if (def.description) desc[""] = def.description;
  for (const p of Object.keys(def.properties ?? {}).sort()) {
    const d = def.properties[p].description;
    if (d) desc[p] = d;
  }
  if (Object.keys(desc).length > 0) {
    if (!descByPackage.has(pkg)) descByPackage.set(pkg, {});
    descByPackage.get(pkg)[name.slice(pkg.length + 1)] = desc;
  }
}

// ---- protobuf ------------------------------------------------------------------------------

/**
 * Go marshals every field of a struct to protobuf, pointers only when set, and proto2 cannot
 * tell the two apart; the JSON form omits unset fields (omitempty). A zero on the wire is kept
 * when the field is required or when its documented default is not zero (Kubernetes' API
 * conventions make such fields pointers, so zero was set on purpose, as `replicas: 0`); other
 * zeros read as unset. Embedded types whose fields the JSON flattens are marked `inline`.
 */
function protoDescriptor() {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".proto")) files.push(join(dir, e.name));
    }
  };
  const protoRoot = join(reference, "proto");
  walk(protoRoot);
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) =>
    target.startsWith("/") ? target : join(protoRoot, target);
  root.loadSync(files.sort(), { keepCase: true });
  root.resolveAll();
  const nonZeroDefault = /Defaults to (?:[1-9]|true\b)/;
  const defOf = (type) =>
    swagger.definitions[type.fullName.slice(1).replace(/^k8s\.io\./, "io.k8s.")];
  const annotate = (type, def) => {
    const byLower = new Map(Object.keys(def?.properties ?? {}).map((p) => [p.toLowerCase(), p]));
    for (const field of type.fieldsArray) {
      let json = field.name;
      if (def?.properties && !(json in def.properties)) {
        // A few fields are spelled differently in the schemas (`Webhooks`, `uID`); a
        // message-typed field with no JSON property is an embedded type flattened inline
        // (`Volume.volumeSource`), whose definition OpenAPI may not even list: its fields are
        // judged by the owner's.
        if (byLower.has(json.toLowerCase())) {
          json = byLower.get(json.toLowerCase());
          field.setOption("json", json);
        } else if (field.resolvedType instanceof protobuf.Type) {
          field.setOption("inline", true);
          if (!defOf(field.resolvedType)) annotate(field.resolvedType, def);
        }
      }
      const prop = def?.properties?.[json];
      if (prop && (def.required?.includes(json) || nonZeroDefault.test(prop.description ?? "")))
        field.setOption("keepZero", true);
    }
  };
  const visit = (ns) => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type && defOf(nested)) annotate(nested, defOf(nested));
      if (nested.nestedArray) visit(nested);
    }
  };
  visit(root);
  return root.toJSON();
}

// ---- output ---------------------------------------------------------------------------------

const header = {
  source:
    "Kubernetes 1.32 OpenAPI v2 (reference/kubernetes/1.32/swagger.json) and k8s.io/api v0.32.9 +default markers; generated by scripts/catalog/generate.mjs, do not edit",
};
const files = new Map();
const emit = (path, value) => files.set(path, `${JSON.stringify(value)}\n`);
emit("resources.json", { ...header, resources: resourceList });
for (const [pkg, defs] of defsByPackage) emit(`defs/${pkg}.json`, defs);
for (const [pkg, descs] of descByPackage) emit(`descriptions/${pkg}.json`, descs);
emit("proto.json", { ...header, ...protoDescriptor() });

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [relative(outDir, join(dir, e.name))],
  );
}

if (check) {
  const stale = [];
  for (const [path, text] of files) {
    const full = join(outDir, path);
    if (!existsSync(full) || readFileSync(full, "utf8") !== text) stale.push(path);
  }
  for (const path of listFiles(outDir)) if (!files.has(path)) stale.push(`${path} (not generated)`);
  if (stale.length > 0) {
    console.error(
      `catalog: packages/apimachinery/data is stale (${stale.slice(0, 5).join(", ")}${stale.length > 5 ? ", ..." : ""}); run npm run catalog`,
    );
    process.exit(1);
  }
  console.log(`catalog: ${files.size} files up to date`);
} else {
  rmSync(outDir, { recursive: true, force: true });
  for (const [path, text] of files) {
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    writeFileSync(join(outDir, path), text);
  }
  console.log(
    `catalog: wrote ${files.size} files to ${relative(repo, outDir)} (${resourceList.length} resources)`,
  );
}
