import { http } from './http';

/** One sample of a Prometheus text exposition: the value of `name` with at least these labels, or undefined. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** The metrics of a server, as Prometheus scrapes them. */
export async function scrape(base: string): Promise<string> {
  const response = await http(base, 'GET', '/metrics');
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return response.text;
}
