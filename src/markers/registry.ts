/**
 * The marker registry: every marker definition by name, plus the lookups the parser needs (the
 * families written as `@word Sub`, such as `@validation Minimum` and `@subresource scale`) and the
 * listing `opgen markers` prints. Generators register their definitions (src/generators/markers.ts
 * assembles them); this module knows none.
 */
import type { MarkerDefinition } from "./types.js";

export class MarkerRegistry {
  private readonly byName = new Map<string, MarkerDefinition>();
  /** Family word -> sub-names (`validation` -> `Minimum`, `items:Minimum`, ...). */
  private readonly families = new Map<string, string[]>();

  constructor(defs: readonly MarkerDefinition[]) {
    for (const def of defs) this.register(def);
  }

  register(def: MarkerDefinition): void {
    if (this.byName.has(def.name)) throw new Error(`marker ${def.name} is registered twice`);
    const space = def.name.indexOf(" ");
    const root = space < 0 ? def.name : def.name.slice(0, space);
    if (space >= 0) {
      if (this.byName.has(root)) throw new Error(`marker ${root} is both a family and a marker`);
      const subs = this.families.get(root) ?? [];
      subs.push(def.name.slice(space + 1));
      this.families.set(root, subs);
    } else if (this.families.has(root)) {
      throw new Error(`marker ${root} is both a family and a marker`);
    }
    this.byName.set(def.name, def);
  }

  /** A definition by full name (`resource`, `validation Minimum`). */
  get(name: string): MarkerDefinition | undefined {
    return this.byName.get(name);
  }

  /** Whether `word` starts a family (`validation`, `subresource`). */
  isFamily(word: string): boolean {
    return this.families.has(word);
  }

  familyMembers(word: string): readonly string[] {
    return this.families.get(word) ?? [];
  }

  /** The words a tag may start with: single markers and family words. */
  tagNames(): string[] {
    const names = new Set<string>();
    for (const name of this.byName.keys()) names.add(name.split(" ")[0]!);
    return [...names];
  }

  all(): readonly MarkerDefinition[] {
    return [...this.byName.values()];
  }
}
