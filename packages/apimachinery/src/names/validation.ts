/**
 * Name validators of k8s.io/apimachinery `pkg/util/validation`, returning kube's messages (empty
 * when valid): what the API server checks object names, labels and CRD names with, so the CLI
 * can refuse at generation what the cluster would refuse at apply.
 */

const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
const QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;

const whole = (fmt: string) => new RegExp(`^${fmt}$`);
const dns1123Label = whole(DNS1123_LABEL_FMT);
const dns1123Subdomain = whole(DNS1123_SUBDOMAIN_FMT);
const dns1035Label = whole(DNS1035_LABEL_FMT);
const qualifiedName = whole(QUALIFIED_NAME_FMT);
const labelValue = whole(LABEL_VALUE_FMT);

const maxLen = (n: number) => `must be no more than ${n} characters`;
const regexError = (msg: string, fmt: string, ...examples: string[]) =>
  `${msg} (e.g. ${examples.map((e) => `'${e}'`).join(",  or ")}, regex used for validation is '${fmt}')`;

/** validation.IsDNS1123Label. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!dns1123Label.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL_FMT,
        "my-name",
        "123-abc",
      ),
    );
  }
  return errs;
}

/** validation.IsDNS1123Subdomain. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLen(253));
  if (!dns1123Subdomain.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        "example.com",
      ),
    );
  }
  return errs;
}

/** validation.IsDNS1035Label. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!dns1035Label.test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FMT,
        "my-name",
        "abc-123",
      ),
    );
  }
  return errs;
}

/** validation.IsQualifiedName: an optional DNS-1123 subdomain prefix and `/`, then a name. */
export function isQualifiedName(value: string): string[] {
  const parts = value.split("/");
  let name: string;
  const errs: string[] = [];
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const [prefix, n] = parts as [string, string];
    name = n;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  } else {
    return [
      `${regexError(
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME_FMT,
        "MyName",
        "my.name",
        "123-abc",
      )} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (!qualifiedName.test(name)) {
    errs.push(
      `name part ${regexError(
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME_FMT,
        "MyName",
        "my.name",
        "123-abc",
      )}`,
    );
  }
  return errs;
}

/** validation.IsValidLabelValue. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!labelValue.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        "MyValue",
        "my_value",
        "12345",
      ),
    );
  }
  return errs;
}

/** path.IsValidPathSegmentName: names that cannot appear in a REST path. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const bad of ["/", "%"]) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}
