/** What a ThirdPartyResource's name stands for. */
export interface ThirdPartyNames {
  kind: string;
  group: string;
  plural: string;
}

/**
 * `cron-tab.stable.example.com`: kind `CronTab`, group `stable.example.com`, plural `crontabs`. As in 1.7, the first
 * letter and each letter after a dash are upper-cased by subtracting 32 from the character code (so only lowercase
 * ASCII letters come out right there), then the dashes are dropped. Undefined for a name of fewer than 3 parts.
 */
export function thirdPartyNames(name: string): ThirdPartyNames | undefined {
  const [kindWords, ...domain] = name.split('.');
  if (domain.length < 2) return undefined;
  let kind = '';
  let upper = true;
  for (const char of kindWords) {
    if (char === '-') {
      upper = true;
      continue;
    }
    kind += upper ? String.fromCharCode(char.charCodeAt(0) - 32) : char;
    upper = false;
  }
  return { kind, group: domain.join('.'), plural: pluralOf(kind) };
}

/** The kind lower-cased, with `es` after an `s`, `ies` for a final `y`, else `s`; `endpoints` stays as it is. */
function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower === 'endpoints') return lower;
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}
