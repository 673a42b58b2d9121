import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './support/global-setup';
import { ServerProcess } from './support/server-process';
import { startServerProcess } from './support/test-server-process';

/**
 * The README's quick start, run as written: the server on its embedded PostgreSQL (no DATABASE_URL), then every
 * `kubectl` line for the insecure port and the `psql` line of the quick start, with only the two port numbers replaced by free ones.
 */
jest.setTimeout(180_000);

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const quickStart = README.slice(README.indexOf('## Quick start'), README.indexOf('\n## ', README.indexOf('## Quick start') + 1));
/** The lines for the insecure port and the embedded PostgreSQL (the secure port's example needs a token file). */
const commands = quickStart.split('\n').filter((line) => line.startsWith('kubectl --server=http://127.0.0.1:8080 ') || line.startsWith('psql '));

let dir: string;
let server: ServerProcess;
let apiPort: string;
let databasePort: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgkube-quick-start-'));
  chmodSync(dir, 0o755); // the embedded PostgreSQL runs as another user and must reach its data folder
  databasePort = String(await freePort());
  server = await startServerProcess({ DATA_DIR: join(dir, 'data'), EMBEDDED_POSTGRES_PORT: databasePort });
  apiPort = new URL(server.url).port;
});

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Splits a command line as the shell would for these lines: words, and single-quoted words. */
const words = (line: string) => [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);

it('has kubectl and psql lines to run', () => {
  expect(commands.filter((c) => c.startsWith('kubectl ')).length).toBeGreaterThanOrEqual(4);
  expect(commands.filter((c) => c.startsWith('psql ')).length).toBe(1);
});

it('runs every line of the quick start as written', async () => {
  const outputs: string[] = [];
  for (const line of commands) {
    const [command, ...args] = words(line.replace('127.0.0.1:8080', `127.0.0.1:${apiPort}`).replace(':55432/', `:${databasePort}/`));
    const { stdout } = await run(command, args, { cwd: ROOT, env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig') } }).catch((error) => {
      throw new Error(`${line} failed: ${error.stderr ?? error.message}`);
    });
    outputs.push(stdout);
  }
  const [resources, created, listed, scaled, shown, sql] = outputs;
  expect(resources).toMatch(/^deployments\s+deploy\s+extensions\/v1beta1\s+true\s+Deployment$/m);
  const examples = readdirSync(join(ROOT, 'examples')).filter((file) => file.endsWith('.yaml'));
  expect(created.trim().split('\n')).toHaveLength(examples.length); // one line per example
  expect(listed).toContain('hello');
  expect(scaled).toContain('deployment.extensions/hello scaled');
  expect(shown).toMatch(/^ {2}replicas: 3$/m);
  expect(sql).toMatch(/^ default\s+\| hello\s+\|\s+3 \| /m);
});
