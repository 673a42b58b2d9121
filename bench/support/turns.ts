import { ServerProcess } from '../../test/support/server-process';
import { runLoad } from './load';

/** One form of a request to measure: where it goes and what it carries. */
export interface Target {
  url: string;
  path: string;
  headers: Record<string, string>;
}

export interface TurnsOptions {
  seconds: number;
  rounds: number;
  connections: number;
}

/**
 * Server CPU µs per request, requests/s and p50 of GETs of each target, after a 2 s warm-up of each: the targets
 * take turns in short rounds, so that all of them meet the same state of a shared machine.
 */
export async function measureInTurns(server: ServerProcess, targets: Target[], { seconds, rounds, connections }: TurnsOptions) {
  const load = ({ url, path, headers }: Target, length: number) =>
    runLoad({ url, connections, seconds: length, request: () => ({ method: 'GET', path, headers }) });
  for (const target of targets) await load(target, 2);
  const totals = targets.map(() => ({ cpuMs: 0, ok: 0, seconds: 0, p50s: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const before = server.cpuMs();
      const result = await load(target, seconds / rounds);
      if (result.errors > 0) throw new Error(`${target.url}: ${result.errors} failed requests (${JSON.stringify(result.statuses)})`);
      totals[i].cpuMs += server.cpuMs() - before;
      totals[i].ok += result.ok;
      totals[i].seconds += seconds / rounds;
      totals[i].p50s.push(result.p50);
    }
  }
  return totals.map((t) => ({ cpuUs: (t.cpuMs * 1000) / t.ok, rps: t.ok / t.seconds, p50: t.p50s.sort((a, b) => a - b)[Math.floor(rounds / 2)] }));
}
