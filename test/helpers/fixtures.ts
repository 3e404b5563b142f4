/**
 * Upstream goldens the tests compare with, kept in the repository (test/fixtures/, each folder's
 * README or SOURCES.md names the upstream files): controller-gen's CRD and RBAC outputs and
 * Kubebuilder's webhook scaffolds. `npm run sync:shared` refreshes them from ../shared.
 */
import { join } from "node:path";
import { REPO_ROOT } from "./cli.js";

export const FIXTURES_DIR = join(REPO_ROOT, "test", "fixtures");
export const CONTROLLER_GEN_FIXTURES = join(FIXTURES_DIR, "controller-gen");
export const WEBHOOK_FIXTURES = join(FIXTURES_DIR, "webhook");
