/**
 * Names of projects, groups, versions and kinds: validation with the rules Kubernetes and
 * Kubebuilder apply, and the derived forms (plural, lower-case, file names) the scaffold uses.
 */
import { isDNS1123Label, isDNS1123Subdomain, kubebuilderPlural } from "@opgen/apimachinery/names";
import { CliError } from "./errors.js";

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const VERSION = /^v\d+((alpha|beta)\d+)?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

export function isDns1123Label(value: string): boolean {
  return isDNS1123Label(value).length === 0;
}

export function isDns1123Subdomain(value: string): boolean {
  return isDNS1123Subdomain(value).length === 0;
}

/** Quotes a user value for an error message, keeping control characters visible. */
function show(value: string): string {
  return JSON.stringify(value);
}

export function validateDomain(domain: string): void {
  if (!isDns1123Subdomain(domain)) {
    throw new CliError(
      `invalid --domain ${show(domain)}: must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', e.g. my.domain)`,
    );
  }
}

export function validateProjectName(name: string): void {
  if (!isDns1123Label(name)) {
    throw new CliError(
      `invalid project name ${show(name)}: must be a DNS-1123 label (lower-case letters, digits and '-', at most 63 characters); pass --project-name`,
    );
  }
}

/** The group is given without the domain; the full API group `<group>.<domain>` must be a DNS-1123 subdomain. */
export function validateGroup(group: string, domain: string): void {
  // The domain typed into --group would make the API group <group>.<domain>.<domain>.
  if (group === domain || group.endsWith(`.${domain}`)) {
    const own = group.slice(0, -domain.length - 1);
    throw new CliError(
      `invalid --group ${show(group)}: the project's domain ${domain} is added to the group, so pass ${own ? `--group ${own}` : "the group's own name (e.g. --group webapp)"} for the API group ${own || "webapp"}.${domain}`,
    );
  }
  if (group === "" || !isDns1123Subdomain(group) || !isDns1123Subdomain(`${group}.${domain}`)) {
    throw new CliError(
      `invalid --group ${show(group)}: must be lower-case DNS-1123 labels (e.g. demo or batch.apps), forming the API group <group>.${domain}`,
    );
  }
}

export function validateVersion(version: string): void {
  if (!VERSION.test(version)) {
    throw new CliError(
      `invalid --version ${show(version)}: must look like v1, v2beta1 or v1alpha2 (^v\\d+(alpha\\d+|beta\\d+)?$)`,
    );
  }
}

export function validateKind(kind: string): void {
  if (!KIND.test(kind) || kind.length > 63) {
    throw new CliError(
      `invalid --kind ${show(kind)}: must be UpperCamelCase letters and digits starting with an upper-case letter (e.g. AppCluster)`,
    );
  }
}

export function validatePlural(plural: string): void {
  if (!DNS1035_LABEL.test(plural) || plural.length > 63) {
    throw new CliError(
      `invalid --plural ${show(plural)}: must be a lower-case DNS-1035 label (e.g. appclusters)`,
    );
  }
}

/**
 * The resource plural `create api` records for a kind, as Kubebuilder does (flect's rules on the
 * lower-cased kind: `CronJob` → `cronjobs`, `Policy` → `policies`, `Endpoints` → `endpoints`,
 * `Person` → `people`); pass --plural to override.
 */
export function pluralOf(kind: string): string {
  return kubebuilderPlural(kind);
}

/** `AppCluster` → `appcluster`: file names, the controller name and RBAC role names. */
export function lowerKind(kind: string): string {
  return kind.toLowerCase();
}

/** `AppCluster` → `app-cluster`. */
export function kebabCase(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase();
}

/** A project name derived from a folder name: lower-cased, non-label characters folded to '-'. */
export function projectNameFromDir(dirName: string): string {
  return kebabCase(dirName).slice(0, 63).replace(/-+$/, "");
}

/** Control characters (a newline among them): never part of a one-line value. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The copyright owner goes into a one-line `/* ... *\/` license header of every source file. */
export function validateOwner(owner: string): void {
  if (CONTROL.test(owner) || owner.includes("*/") || owner.trim() === "") {
    throw new CliError(
      `invalid --owner ${show(owner)}: it goes into the /* */ license header of every file, so it must be one non-empty line without control characters or "*/"`,
    );
  }
}

/** A dependency spec written into package.json: one line (npm specs never hold control characters). */
export function validateDependencySpec(flag: string, spec: string): void {
  if (CONTROL.test(spec) || spec.trim() === "") {
    throw new CliError(
      `invalid ${flag} ${show(spec)}: an npm dependency spec is one non-empty line (a version range, a tarball, a file: path or a git URL)`,
    );
  }
}
