/**
 * Help text for markers, built from the registry: the grouped listing `opgen markers` prints,
 * the detail of one marker (`opgen markers NAME`), and the reference section of docs/markers.md.
 * One source, so the CLI, the docs and the parser cannot disagree.
 */
import type { MarkerRegistry } from "./registry.js";
import { closest } from "./suggest.js";
import type { ArgSpec, MarkerDefinition, MarkerTarget } from "./types.js";

export const GROUPS: readonly { id: MarkerDefinition["group"]; title: string }[] = [
  { id: "validation", title: "Validation (fields and types)" },
  { id: "field", title: "Fields: required, defaults, docs" },
  { id: "topology", title: "Topology (server-side apply)" },
  { id: "crd", title: "Root type: the CustomResourceDefinition" },
  { id: "package", title: "Package (groupversion.ts)" },
  { id: "rbac", title: "Controllers: RBAC" },
  { id: "webhook", title: "Webhooks (config/webhook/manifests.yaml)" },
];

const TARGETS: Record<MarkerTarget, string> = {
  field: "field",
  type: "type",
  root: "root type",
  package: "GroupVersion const",
  controller: "controller",
  source: "any JSDoc comment of a source under src/",
};

function argType(a: ArgSpec): string {
  const values = a.oneOf ?? a.suggest;
  if (values) return values.join("|");
  switch (a.type) {
    case "list":
      return a.items === "any" ? "value;value..." : "string;string...";
    case "text":
      return "text";
    case "any":
      return "yaml-value";
    default:
      return a.type;
  }
}

/** How a marker is written: `@validation Minimum=<number>`, `@resource [scope=<Namespaced|Cluster>] ...`. */
export function usage(def: MarkerDefinition): string {
  const family = def.name.includes(" ");
  if (!def.args.length) return `@${def.name}`;
  if (def.args.length === 1 && def.args[0]!.name === "") {
    const a = def.args[0]!;
    const value = `<${argType(a)}>`;
    const written = family ? `@${def.name}=${value}` : `@${def.name} ${value}`;
    return a.required === false || a.type === "bool"
      ? `${written.replace(/[= ]<.*>$/, "")}[${family ? "=" : " "}${value}]`
      : written;
  }
  const parts = def.args.map((a) =>
    a.required ? `${a.name}=<${argType(a)}>` : `[${a.name}=<${argType(a)}>]`,
  );
  return `@${def.name} ${parts.join(" ")}`;
}

/** The grouped listing, one line per marker; `items:` variants are summarized in a note. */
export function listing(registry: MarkerRegistry): string {
  const defs = registry.all().filter((d) => !d.itemsOf);
  const lines: string[] = [];
  for (const group of GROUPS) {
    const members = defs.filter((d) => d.group === group.id);
    if (!members.length) continue;
    lines.push(`${group.title}:`);
    const width = Math.min(48, Math.max(...members.map((d) => usage(d).length)));
    for (const d of members) {
      const u = usage(d);
      // A long usage (XValidation, printcolumn) gets its help on the next line.
      if (u.length > width) lines.push(`  ${u}`, `  ${"".padEnd(width)}  ${d.help}`);
      else lines.push(`  ${u.padEnd(width)}  ${d.help}`);
    }
    if (group.id === "validation") {
      lines.push(
        "  Every value validation also exists as @validation items:<Name> for the items of an array,",
      );
      lines.push("  e.g. @validation items:MaxLength=63.");
    }
    lines.push("");
  }
  lines.push(
    "Run `opgen markers NAME` for a marker's arguments, e.g. `opgen markers printcolumn`.",
  );
  return `${lines.join("\n")}\n`;
}

/** Finds a marker by a loose name: `validation Minimum`, `validation:Minimum`, `Minimum`, `@resource`. */
export function findMarker(registry: MarkerRegistry, query: string): MarkerDefinition | undefined {
  const q = query
    .trim()
    .replace(/^@/, "")
    .replace(/^kubebuilder:/, "");
  const candidates = [q, q.replace(":", " "), q.replace(/\s+/, " ")];
  for (const c of candidates) {
    const def = registry.get(c);
    if (def) return def;
  }
  const bySub = registry.all().filter((d) => d.name.split(" ")[1] === q);
  return bySub.length === 1 ? bySub[0] : undefined;
}

export function suggestMarker(registry: MarkerRegistry, query: string): string | undefined {
  const names = registry.all().flatMap((d) => [d.name, d.name.split(" ")[1] ?? d.name]);
  const hint = closest(query.replace(/^@/, ""), names);
  if (!hint) return undefined;
  return registry.get(hint)?.name ?? registry.all().find((d) => d.name.endsWith(` ${hint}`))?.name;
}

/** Everything about one marker, for `opgen markers NAME`. */
export function detail(def: MarkerDefinition): string {
  const lines = [
    `${usage(def)}`,
    "",
    `  ${def.help}`,
    "",
    `  where:        ${def.targets.map((t) => TARGETS[t]).join(", ")}`,
  ];
  if (def.repeatable) lines.push("  repeatable:   yes (order kept)");
  if (def.kubebuilder) lines.push(`  kubebuilder:  ${def.kubebuilder}`);
  if (def.args.length) {
    lines.push("  arguments:");
    const width = Math.max(...def.args.map((a) => (a.name || "(value)").length));
    for (const a of def.args) {
      lines.push(
        `    ${(a.name || "(value)").padEnd(width)}  ${argType(a)}${a.required ? ", required" : ""}: ${a.help}`,
      );
    }
  }
  lines.push("  example:", `    /** ${def.example} */`);
  return `${lines.join("\n")}\n`;
}

function mdEscape(text: string): string {
  return text.replaceAll("|", "\\|");
}

/** The generated reference section of docs/markers.md. */
export function markdownReference(registry: MarkerRegistry): string {
  const defs = registry.all().filter((d) => !d.itemsOf);
  const out: string[] = [];
  for (const group of GROUPS) {
    const members = defs.filter((d) => d.group === group.id);
    if (!members.length) continue;
    out.push(`### ${group.title}`, "");
    for (const d of members) {
      out.push(`#### \`@${d.name}\``, "");
      out.push(
        `${d.help.charAt(0).toUpperCase()}${d.help.slice(1)}${/[.!?]$/.test(d.help) ? "" : "."}`,
        "",
      );
      out.push(`- Written: \`${usage(d)}\``);
      out.push(
        `- On: ${d.targets.map((t) => TARGETS[t]).join(", ")}${d.repeatable ? " (repeatable, order kept)" : ""}`,
      );
      if (d.kubebuilder) out.push(`- Kubebuilder: \`${d.kubebuilder}\``);
      if (d.args.length) {
        out.push("", "| argument | type | required | meaning |", "| --- | --- | --- | --- |");
        for (const a of d.args) {
          out.push(
            `| ${a.name ? `\`${a.name}\`` : "(value)"} | ${mdEscape(argType(a))} | ${a.required ? "yes" : "no"} | ${mdEscape(a.help)} |`,
          );
        }
      }
      out.push("", "```ts", `/** ${d.example} */`, "```", "");
      if (d.group === "validation" && registry.get(`validation items:${d.name.split(" ")[1]}`)) {
        out.push(
          `Also \`@validation items:${d.name.split(" ")[1]}\`, applied to each item of an array.`,
          "",
        );
      }
    }
  }
  return out.join("\n");
}
