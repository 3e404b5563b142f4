/**
 * `opgen markers [NAME]`: prints the marker catalogue from the registry, grouped, one line each;
 * with a name, one marker's arguments, targets, Kubebuilder equivalent and an example.
 */

import { markerRegistry } from "../generators/markers.js";
import { detail, findMarker, listing, suggestMarker } from "../markers/help.js";
import { CliError } from "../util/errors.js";

export async function runMarkers(
  name: string | undefined,
  _opts?: unknown,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<void> {
  const registry = markerRegistry();
  if (!name) {
    out(listing(registry));
    return;
  }
  const def = findMarker(registry, name);
  if (!def) {
    const hint = suggestMarker(registry, name);
    throw new CliError(
      `unknown marker "${name}"${hint ? `; did you mean "${hint}"?` : ""} (opgen markers lists them all)`,
    );
  }
  out(detail(def));
}
