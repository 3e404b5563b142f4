/**
 * The marker catalogue's public entry point: definitions, the registry, the JSDoc splitter and the
 * parser. Generators import from here.
 *
 *   const doc = parseJSDoc(sourceText, comment.pos, comment.end, lineMap);   // description + raw tags
 *   const { markers, diagnostics } = parseMarkers(doc.tags, "field");         // checked markers
 *   markers.find((m) => m.def.name === "validation Minimum")?.args[""];       // typed values
 */
export { definitions } from "./definitions/index.js";
export {
  type JSDocParts,
  LineMap,
  normalizeDescription,
  parseJSDoc,
  type RawTag,
} from "./jsdoc.js";
export { markerLabel, type ParseResult, parseMarkers } from "./parse.js";
export { MarkerRegistry, markerRegistry } from "./registry.js";
export { closest } from "./suggest.js";
export type * from "./types.js";
