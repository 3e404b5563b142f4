/**
 * Template rendering: handlebars with HTML escaping off (we write code and YAML, not HTML) and
 * strict lookups, so a template that names a missing value fails loudly instead of printing "".
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import { packageRoot } from "../../util/package-root.js";

const compiled = new Map<string, HandlebarsTemplateDelegate>();

/**
 * A private Handlebars with one helper, `json`: `{{json value}}` writes the value as a JSON
 * literal (quotes and escapes included), so a user's text in package.json (a dependency spec such
 * as a file: path) cannot break out of its string.
 */
const handlebars = Handlebars.create();
handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));

export function templatesDir(): string {
  return join(packageRoot(), "templates");
}

/** Renders `templates/<name>` (a path ending in .hbs) with `data`. */
export function renderTemplate(name: string, data: object): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(join(templatesDir(), name), "utf8");
    template = handlebars.compile(source, { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  return template(data);
}

/** The names a template imports (`import { a, type B } from "..."`), in order. */
export function templateImports(name: string): string[] {
  const source = readFileSync(join(templatesDir(), name), "utf8");
  // The first import follows `{{header}}` on its line.
  return [...source.matchAll(/(?:^|\}\})import (?:type )?\{([^}]*)\} from /gm)].flatMap((m) =>
    m[1]!
      .split(",")
      .map((s) => s.trim().replace(/^type\s+/, ""))
      .filter((s) => /^[A-Za-z_$][\w$]*$/.test(s)),
  );
}

/**
 * The templates under `templates/<folder>`, each with the path it renders to: `.hbs` dropped, and
 * a leading `_` in a path segment turned into `.` (npm drops `.gitignore` and friends from
 * published packages, so they are stored as `_gitignore`).
 */
export function listTemplates(folder: string): { template: string; target: string }[] {
  const root = join(templatesDir(), folder);
  const out: { template: string; target: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith(".hbs")) {
        const rel = relative(root, full).split(sep).join("/");
        out.push({
          template: `${folder}/${rel}`,
          target: rel
            .slice(0, -".hbs".length)
            .split("/")
            .map((s) => (s.startsWith("_") ? `.${s.slice(1)}` : s))
            .join("/"),
        });
      }
    }
  };
  walk(root);
  return out;
}
