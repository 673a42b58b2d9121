import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { call, useTwoInstances } from './support/two-instances';
import { until } from './support/until';

// Debian's python3-kubernetes (22.6) runs its leader election (kubernetes.leaderelection) with three candidates
// against two instances over one database: one leader at a time, and another soon after the leader is killed.

const PYTHON = '/usr/bin/python3'; // Debian's, which has the package (scripts/test-tools.sh installs it)
const CANDIDATE = join(__dirname, 'fixtures', 'leader-candidate.py');
const LEASE_DURATION = 4;
const RENEW_DEADLINE = 3;
const RETRY_PERIOD = 1;
/** what the candidates' requests and Python's start-up may add to the periods */
const SLACK_MS = 1000;

const instances = useTwoInstances();

interface Candidate {
  identity: string;
  process: ChildProcess;
  /** when it printed LEADING, if it did */
  ledAt?: number;
  output: string;
}

function startCandidate(server: string, lock: string, name: string, identity: string): Candidate {
  const args = [CANDIDATE, server, lock, 'default', name, identity, `${LEASE_DURATION}`, `${RENEW_DEADLINE}`, `${RETRY_PERIOD}`];
  const candidate: Candidate = { identity, process: spawn(PYTHON, args), output: '' };
  const read = (chunk: Buffer) => {
    candidate.output += chunk.toString();
    if (candidate.ledAt === undefined && candidate.output.includes(`LEADING ${identity}`)) candidate.ledAt = Date.now();
  };
  candidate.process.stdout?.on('data', read);
  candidate.process.stderr?.on('data', read);
  return candidate;
}

/** The holder the lock names, read through an instance. */
async function holderOf(lock: string, name: string, server: (typeof instances)['a']): Promise<string | undefined> {
  if (lock === 'lease') return (await call(server, 'GET', `/apis/coordination.k8s.io/v1/namespaces/default/leases/${name}`)).json?.spec?.holderIdentity;
  const annotation = (await call(server, 'GET', `/api/v1/namespaces/default/configmaps/${name}`)).json?.metadata?.annotations?.['control-plane.alpha.kubernetes.io/leader'];
  return annotation ? JSON.parse(annotation).holderIdentity : undefined;
}

describe.each([
  { lock: 'lease', name: 'python-election' },
  // ConfigMaps come with the wt-secrets branch: this case passes once both are merged
  { lock: 'configmap', name: 'python-election-cm' },
])('python3-kubernetes leader election with a $lock lock', ({ lock, name }) => {
  let candidates: Candidate[] = [];
  afterAll(() => candidates.forEach((c) => c.process.kill('SIGKILL')));

  it('has exactly one leader at a time, and a new one once the lease expires after the leader is killed', async () => {
    const { a, b } = instances;
    candidates = [startCandidate(a.url, lock, name, `${lock}-one`), startCandidate(b.url, lock, name, `${lock}-two`), startCandidate(a.url, lock, name, `${lock}-three`)];
    const leaders = () => candidates.filter((c) => c.ledAt !== undefined);
    await until(() => leaders().length > 0, 20_000, 50);
    const [leader] = leaders();

    // for a few renewals: no other candidate leads, and both instances name the leader as the holder
    for (let i = 0; i < 6; i++) {
      expect(leaders()).toEqual([leader]);
      expect(await holderOf(lock, name, a)).toBe(leader.identity);
      expect(await holderOf(lock, name, b)).toBe(leader.identity);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    const killedAt = Date.now();
    leader.process.kill('SIGKILL');
    await until(() => leaders().length > 1, (LEASE_DURATION + 2 * RETRY_PERIOD + 5) * 1000, 50);
    const [next, ...others] = leaders().filter((c) => c !== leader);
    expect(others).toEqual([]);
    // A follower takes over once the lease has not changed for the lease duration since it last saw it change,
    // which it checks every retry period (as client-go's): the leader renewed at most a retry period before it was
    // killed, the follower saw that renewal up to a retry period later, and sees the expiry up to one more after.
    expect((next.ledAt as number) - killedAt).toBeLessThanOrEqual((LEASE_DURATION + 2 * RETRY_PERIOD) * 1000 + SLACK_MS);
    await until(async () => (await holderOf(lock, name, a)) === next.identity, 5000);
    expect(await holderOf(lock, name, b)).toBe(next.identity);

    // the new leader keeps it: the third candidate never leads
    await new Promise((resolve) => setTimeout(resolve, (LEASE_DURATION + 1) * 1000));
    expect(leaders().filter((c) => c !== leader)).toEqual([next]);
    expect(await holderOf(lock, name, b)).toBe(next.identity);
  }, 60_000);
});
