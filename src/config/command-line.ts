/** kube-apiserver's names for the settings it also has, accepted beside the names derived from the variables. */
const KUBE_APISERVER_ALIASES: Record<string, string[]> = {
  PORT: ['--insecure-port'],
};

/** `PORT` is `--port`; kube-apiserver's own name where it has one is accepted too. */
export function flagsOf(setting: string): string[] {
  return [`--${setting.toLowerCase().replace(/_/g, '-')}`, ...(KUBE_APISERVER_ALIASES[setting] ?? [])];
}

/**
 * Reads `--flag=value` and `--flag value` into settings by variable name. An unknown flag, or one without a value,
 * is an error that lists the flags there are.
 */
export function settingsFromFlags(argv: string[], settings: readonly string[]): Record<string, string> {
  const byFlag = new Map(settings.flatMap((setting) => flagsOf(setting).map((flag) => [flag, setting] as const)));
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = splitFlag(argv[i]);
    const setting = byFlag.get(flag);
    if (!setting) {
      throw new Error(`unknown flag ${JSON.stringify(argv[i])}; the flags are:\n  ${[...byFlag.keys()].join('\n  ')}`);
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`flag ${flag} needs a value`);
    values[setting] = value;
  }
  return values;
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}
