/** A Go duration such as `30s`, `1m30s` or `250ms`, in milliseconds; undefined when it does not parse. */
export function parseGoDuration(value: string): number | undefined {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) return undefined;
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * units[unit], 0);
}
