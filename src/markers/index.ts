/**
 * The generic marker machinery: the registry, the JSDoc splitter and the parser. Generators import
 * from here and keep their own definitions; src/generators/markers.ts assembles the registry.
 *
 *   const doc = parseJSDoc(sourceText, comment.pos, comment.end, lineMap);   // description + raw tags
 *   const { markers, diagnostics } = parseMarkers(doc.tags, "field", reg);    // checked markers
 *   markers.find((m) => m.def.name === "validation Minimum")?.args[""];       // typed values
 */
export { type GoStyleMarkerRule, goStyleMarkerWarnings } from "./go-style.js";
export {
  type JSDocParts,
  LineMap,
  normalizeDescription,
  parseJSDoc,
  type RawTag,
} from "./jsdoc.js";
export { markerLabel, type ParseResult, parseMarkers } from "./parse.js";
export { MarkerRegistry } from "./registry.js";
export { closest } from "./suggest.js";
export type * from "./types.js";
