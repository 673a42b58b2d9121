import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The files a user makes beside the checkout by following the README hold credentials or data: git must not offer
// them for a commit.
const ROOT = join(__dirname, '..', '..');
const ignored = (path: string) => spawnSync('git', ['check-ignore', '--quiet', '--no-index', path], { cwd: ROOT }).status === 0;

it.each(['tokens.csv', 'admin.kubeconfig', '.compose/admin.kubeconfig', '.data/PG_VERSION', '.data-certs/apiserver.key', '.env'])('ignores %s', (path) => {
  expect(ignored(path)).toBe(true);
});

it('still tracks what belongs to the project', () => {
  for (const path of ['README.md', 'deploy/make-certs.sh', 'examples/deployment.yaml']) expect(ignored(path)).toBe(false);
});
