import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { table } from './results';
import { Cluster } from './server';
import { ServerProcess } from '../../test/support/server-process';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** milliseconds of samples in the window, idle excluded */
  busyMs: number;
  functions: { name: string; where: string; selfMs: number; share: number }[];
  areas: { area: string; selfMs: number; share: number }[];
}

const ROOT = `${process.cwd()}/`;

/** Where a function lives: a package of node_modules, a file of the project, or Node/V8 itself. */
function areaOf(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = path.slice(modules + 14).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  if (path.startsWith('/')) return relative(ROOT, path).split('/').slice(0, 3).join('/');
  return path.startsWith('node:') ? 'node internals' : '(native / V8)';
}

function where(frame: ProfileNode['callFrame']): string {
  const path = frame.url.replace(/^file:\/\//, '');
  return path ? `${path.startsWith(ROOT) ? path.slice(ROOT.length) : path}:${frame.lineNumber + 1}` : '';
}

/**
 * Self time per function and per area (package or source folder) of a V8 .cpuprofile (`node --cpu-prof`), counting
 * only the samples taken between `fromUs` and `toUs` (V8's sample clock is the monotonic clock of process.hrtime,
 * in microseconds) and leaving idle time out.
 */
export function summarizeProfile(file: string, fromUs = -Infinity, toUs = Infinity): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    if (time < fromUs || time > toUs || nodes.get(id)?.callFrame.functionName === '(idle)') return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const byFunction = new Map<string, { name: string; where: string; us: number }>();
  const byArea = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = (nodes.get(id) as ProfileNode).callFrame;
    const key = `${frame.functionName}@${frame.url}:${frame.lineNumber}`;
    const entry = byFunction.get(key) ?? { name: frame.functionName || '(anonymous)', where: where(frame), us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
    const area = frame.url ? areaOf(frame.url) : frame.functionName;
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    busy += us;
  }
  const share = (us: number) => (100 * us) / (busy || 1);
  return {
    busyMs: busy / 1000,
    functions: [...byFunction.values()]
      .sort((a, b) => b.us - a.us)
      .map((f) => ({ name: f.name, where: f.where, selfMs: f.us / 1000, share: share(f.us) })),
    areas: [...byArea]
      .sort((a, b) => b[1] - a[1])
      .map(([area, us]) => ({ area, selfMs: us / 1000, share: share(us) })),
  };
}

/**
 * Runs `work` twice against one more server of the cluster started with `node --cpu-prof` (and `env` added to its
 * settings), and summarizes the samples taken during the second run (the first warms the server up: pool
 * connections, compiled code); the whole process when the window cannot be located.
 */
export async function profileWork(
  cluster: Cluster,
  work: (server: ServerProcess) => Promise<void>,
  env: Record<string, string> = {},
): Promise<ProfileSummary & { windowed: boolean }> {
  const dir = mkdtempSync(join(cluster.workDir, 'profile-'));
  const server = await cluster.add({ nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`], env });
  await work(server);
  const from = Number(process.hrtime.bigint() / 1000n);
  await work(server);
  const to = Number(process.hrtime.bigint() / 1000n);
  await cluster.remove(server);
  const file = join(dir, readdirSync(dir)[0]);
  const summary = summarizeProfile(file, from, to);
  return summary.busyMs > 0 ? { ...summary, windowed: true } : { ...summarizeProfile(file), windowed: false };
}

/** The top functions and areas by self time, as Markdown tables. */
export function profileTables(summary: ProfileSummary & { windowed?: boolean }, top = 25): string {
  return [
    `Busy time ${summary.windowed === false ? 'of the whole process (the load window could not be located)' : 'while the load ran'}: ${Math.round(summary.busyMs)} ms (idle excluded). ` +
      'Samples are taken by wall clock: when the server, having woken a peer with a write (PostgreSQL, the load generator), waits for a core, the wait is sampled where it stopped, mostly in `writev`; on an oversubscribed machine that inflates `writev` well beyond its CPU cost.',
    '',
    table(
      ['function', 'where', 'self ms', 'self %'],
      summary.functions.slice(0, top).map((f) => [`\`${f.name}\``, f.where, f.selfMs, f.share]),
    ),
    '',
    table(['area', 'self ms', 'self %'], summary.areas.slice(0, 15).map((a) => [a.area, a.selfMs, a.share])),
  ].join('\n');
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node .bench-build/bench/support/cpu-profile.js FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  console.log(profileTables(summarizeProfile(file), Number(top ?? 25)));
}
