/** The shared design folder (controller-gen fixtures, seeds): `../shared` beside the checkout, as in CI. */
import { join } from "node:path";
import { REPO_ROOT } from "./cli.js";

export const SHARED_DIR = process.env.OPGEN_SHARED_DIR ?? join(REPO_ROOT, "..", "shared");
export const CONTROLLER_GEN_FIXTURES = join(SHARED_DIR, "fixtures", "controller-gen");
