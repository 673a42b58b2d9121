/**
 * The name and label rules of Kubernetes' apimachinery validation. Each check returns the list of messages that the
 * apiserver would give (empty when the value is valid); callers turn them into field errors.
 */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const full = (pattern: string) => new RegExp(`^(?:${pattern})$`);
const qualifiedNameRe = full(QUALIFIED_NAME);

const tooLong = (max: number) => `must be no more than ${max} characters`;

/** `<what> must consist of <rule> (e.g. 'a',  or 'b'`: the start of a message that `withPattern` completes. */
function describe(what: string, rule: string, examples: string[]): string {
  return `${what} must consist of ${rule} (e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}`;
}

const withPattern = (message: string, pattern: string) => `${message}, regex used for validation is '${pattern}')`;

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

/** A rule of a maximum length (when given) and a pattern the whole value must match. */
function patternRule(pattern: string, message: string, max?: number): (value: string) => string[] {
  const re = full(pattern);
  return (value) => {
    const errors: string[] = [];
    if (max !== undefined && value.length > max) errors.push(tooLong(max));
    if (!re.test(value)) errors.push(withPattern(message, pattern));
    return errors;
  };
}

const LABEL_CHARACTERS = "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";

export const dns1123Label = patternRule(
  DNS1123_LABEL,
  describe('a DNS-1123 label', LABEL_CHARACTERS, ['my-name', '123-abc']),
  DNS1123_LABEL_MAX,
);

export const dns1123Subdomain = patternRule(
  DNS1123_SUBDOMAIN,
  "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com'",
  DNS1123_SUBDOMAIN_MAX,
);

export const dns1035Label = patternRule(
  DNS1035_LABEL,
  describe('a DNS-1035 label', LABEL_CHARACTERS, ['my-name', 'abc-123']),
  DNS1123_LABEL_MAX,
);

const QUALIFIED_CHARACTERS = "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_EXAMPLES = ['MyName', 'my.name', '123-abc'];

/** A label key, annotation key or finalizer: an optional DNS subdomain prefix and '/', then a name part. */
export function qualifiedName(value: string): string[] {
  const parts = value.split('/');
  let name: string;
  const errors: string[] = [];
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `${withPattern(describe('a qualified name', QUALIFIED_CHARACTERS, QUALIFIED_EXAMPLES), QUALIFIED_NAME)} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > DNS1123_LABEL_MAX) errors.push(`name part ${tooLong(DNS1123_LABEL_MAX)}`);
  if (name.length > 0 && !qualifiedNameRe.test(name)) {
    errors.push(withPattern(describe('name part', QUALIFIED_CHARACTERS, QUALIFIED_EXAMPLES), QUALIFIED_NAME));
  }
  return errors;
}

export const labelValue = patternRule(
  LABEL_VALUE,
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345'",
  DNS1123_LABEL_MAX,
);

/** The rule every object name passes before its kind's own rule: it must be usable as one path segment. */
export function pathSegmentName(value: string, prefix: boolean): string[] {
  if (!prefix && (value === '.' || value === '..')) return [`may not be '${value}'`];
  const errors: string[] = [];
  for (const c of ['/', '%']) if (value.includes(c)) errors.push(`may not contain '${c}'`);
  return errors;
}

/** A name rule checks a full name, or with `prefix` a generateName prefix (which may end in '-'). */
export type NameRule = (name: string, prefix: boolean) => string[];

const asPrefix = (rule: (value: string) => string[]): NameRule => (name, prefix) =>
  rule(prefix ? maskTrailingDash(name) : name);

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

export const nameRules = {
  dns1123Subdomain: asPrefix(dns1123Subdomain),
  dns1123Label: asPrefix(dns1123Label),
  dns1035Label: asPrefix(dns1035Label),
};

/** An environment variable name (1.7 requires a C identifier). */
export const cIdentifier = patternRule(
  '[A-Za-z_][A-Za-z0-9_]*',
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName'",
);

/** A host such as `*.example.com`. */
export const wildcardDns1123Subdomain = patternRule(
  `\\*\\.${DNS1123_SUBDOMAIN}`,
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com'",
  DNS1123_SUBDOMAIN_MAX,
);

/** A port number: 1–65535. */
export function portNumber(value: number): string[] {
  return value >= 1 && value <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** An IANA service name, as a named port must be. */
export function portName(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 15) errors.push(tooLong(15));
  if (!/^[-a-z0-9]+$/.test(value)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(value)) errors.push('must contain at least one letter (a-z)');
  if (value.includes('--')) errors.push('must not contain consecutive hyphens');
  if (value.startsWith('-') || value.endsWith('-')) errors.push('must not begin or end with a hyphen');
  return errors;
}
