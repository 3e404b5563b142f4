/**
 * Finds the `@webhook` and `@webhookconfiguration` markers (and their controller-gen spellings
 * `@kubebuilder:webhook:...`, `@kubebuilder:webhookconfiguration:...`) in every JSDoc block of the
 * scanned sources, checked by the shared marker parser. Like controller-gen's package-level
 * markers they count wherever they are written; other tags are left to their generators.
 */
import {
  closest,
  type GoStyleMarkerRule,
  goStyleMarkerWarnings,
  LineMap,
  parseJSDoc,
  parseMarkers,
} from "../../markers/index.js";
import type { ParsedMarker } from "../../markers/types.js";
import type { Diagnostic } from "../../source/diagnostics.js";
import type { ProjectSources } from "../../source/project-sources.js";
import { markerRegistry } from "../markers.js";
import { findJsDocBlocks } from "../rbac/jsdoc-comments.js";

export interface CollectedWebhookMarkers {
  webhooks: ParsedMarker[];
  configurations: ParsedMarker[];
  diagnostics: Diagnostic[];
}

// Also near misses (`@webhooks`, `@webhok`), which no other generator reads: they are reported
// with a suggestion instead of silently configuring nothing.
const MARKER_TEXT = /@(?:kubebuilder:)?w/i;
const NAMES = ["webhook", "webhookconfiguration"];

function isWebhookTag(name: string): boolean {
  if (/^(kubebuilder:)?webhook(configuration)?(:|$)/.test(name)) return true;
  const bare = name.replace(/^kubebuilder:/, "").split(":")[0]!;
  return /^w/i.test(bare) && closest(bare, NAMES) !== undefined;
}

// A Kubebuilder marker pasted as a Go-style line comment: `// +kubebuilder:webhook:path=...`.
const GO_STYLE: GoStyleMarkerRule = {
  names: "webhook(?:configuration)?",
  literal: "+kubebuilder:webhook",
  message: (name, args) =>
    `a line comment is not a marker and configures no webhook; write it in a JSDoc block: /** @${name} ${args.trim().replaceAll(",", " ")} */`,
};

/** Collects the markers of `paths` (project-relative sources), in file and source order. */
export function collectWebhookMarkers(
  sources: ProjectSources,
  paths: readonly string[],
): CollectedWebhookMarkers {
  const out: CollectedWebhookMarkers = { webhooks: [], configurations: [], diagnostics: [] };
  for (const path of paths) {
    const text = sources.text(path);
    // Most files hold no webhook marker: skip them without parsing.
    if (!text) continue;
    out.diagnostics.push(...goStyleMarkerWarnings(path, text, GO_STYLE));
    if (!MARKER_TEXT.test(text)) continue;
    // Markers after a syntax error would be lost and the configuration silently short.
    const syntax = sources.syntaxErrors(path, "full");
    if (syntax.length) {
      out.diagnostics.push(...syntax);
      continue;
    }
    const file = sources.syntaxTree(path)!;
    const lines = new LineMap(path, text);
    for (const block of findJsDocBlocks(file)) {
      if (!MARKER_TEXT.test(block.text)) continue;
      const tags = parseJSDoc(text, block.start, block.end, lines).tags.filter((tag) =>
        isWebhookTag(tag.name),
      );
      if (!tags.length) continue;
      const parsed = parseMarkers(tags, "source", markerRegistry());
      out.diagnostics.push(...parsed.diagnostics);
      for (const marker of parsed.markers) {
        if (marker.def.name === "webhook") out.webhooks.push(marker);
        else out.configurations.push(marker);
      }
    }
  }
  return out;
}
