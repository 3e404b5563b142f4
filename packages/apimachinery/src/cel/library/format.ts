/**
 * Kubernetes' CEL format library (`library/format.go`): `format.named(name)` and
 * `format.<name>()` return a `kubernetes.NamedFormat` whose `validate(s)` is `optional.none()`
 * for a valid string and the list of kube's messages otherwise. The name validators are
 * apimachinery's own (../../names).
 */
import { type Environment, Optional } from "@marcbachmann/cel-js";
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from "../../names/validation.js";
import { namespace } from "./namespace.js";
import { parseRequestURI } from "./urls.js";

const TYPE = "kubernetes.NamedFormat";

class NamedFormat {
  constructor(
    readonly name: string,
    readonly check: (s: string) => string[],
  ) {}
  equals(other: unknown): boolean {
    return other instanceof NamedFormat && other.name === this.name;
  }
}

// NameIsDNSLabel(name, prefix=true) masks a trailing dash, since a generated suffix follows.
const prefix = (f: (s: string) => string[]) => (s: string) =>
  f(s.length > 1 && s.endsWith("-") ? `${s.slice(0, -1)}a` : s);

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const validDate = (s: string) =>
  !Number.isNaN(Date.parse(`${s.slice(0, 10)}T00:00:00Z`)) &&
  new Date(`${s.slice(0, 10)}T00:00:00Z`).toISOString().startsWith(s.slice(0, 10));

const formats: Record<string, (s: string) => string[]> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: prefix(isDNS1123Label),
  dns1123SubdomainPrefix: prefix(isDNS1123Subdomain),
  dns1035LabelPrefix: prefix(isDNS1035Label),
  labelValue: isValidLabelValue,
  uri: (s) => {
    const u = parseRequestURI(s);
    return typeof u === "string" ? [`invalid URI: ${u}`] : [];
  },
  uuid: (s) => (UUID.test(s) ? [] : ["does not match the UUID format"]),
  byte: (s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ["invalid base64"]),
  date: (s) => (DATE.test(s) && validDate(s) ? [] : ["invalid date"]),
  datetime: (s) => (DATETIME.test(s) && validDate(s) ? [] : ["invalid datetime"]),
};

export function registerFormat(env: Environment): void {
  env.registerType(TYPE, NamedFormat);
  env.registerOperator(`${TYPE} == ${TYPE}`, (a: NamedFormat, b: NamedFormat) => a.equals(b));
  const ns = namespace(env, "format");
  for (const [name, check] of Object.entries(formats)) {
    const f = new NamedFormat(name, check);
    env.registerFunction(`${ns}.${name}(): ${TYPE}`, () => f);
  }
  env.registerFunction(`${ns}.named(string): optional<${TYPE}>`, (_: unknown, name: string) => {
    const check = Object.hasOwn(formats, name) ? formats[name] : undefined;
    return check ? Optional.of(new NamedFormat(name, check)) : Optional.none();
  });
  env.registerFunction(
    `${TYPE}.validate(string): optional<list<string>>`,
    (f: NamedFormat, s: string) => {
      const errs = f.check(s);
      return errs.length ? Optional.of(errs) : Optional.none();
    },
  );
}
