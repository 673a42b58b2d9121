import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { http } from './support/http';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer } from './support/test-server';
import { until } from './support/until';

/**
 * Federation's cluster controller: a federation instance probes Clusters registered with it, here a second pgkube
 * instance (its secure port, its own self-signed certificate, a token user), every monitor period.
 */
jest.setTimeout(120_000);

const PERIOD_MS = 1000;
const CLUSTERS = '/apis/federation/v1beta1/clusters';
const SECRETS = '/api/v1/namespaces/federation-system/secrets';
const TOKEN = 'federation-token';

let work: string;
let member: TestServer;
let federation: TestServer;
let memberCa: string;
let memberStopped = false;

const base64 = (text: string) => Buffer.from(text).toString('base64');
const call = (method: string, path: string, body?: unknown) => http(federation.url, method, path, { body });

/** A kubeconfig whose one context reaches `server` as the token user, trusting `ca` when given. */
const kubeconfig = (server: string, ca?: string) =>
  dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'member', cluster: { server, ...(ca ? { 'certificate-authority-data': base64(ca) } : {}) } }],
    users: [{ name: 'federation', user: { token: TOKEN } }],
    contexts: [{ name: 'member', context: { cluster: 'member', user: 'federation' } }],
    'current-context': 'member',
  });

async function secret(name: string, data: Record<string, string>): Promise<void> {
  const body = { metadata: { name }, data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])) };
  expect((await call('POST', SECRETS, body)).status).toBe(201);
}

async function register(name: string, addresses: { clientCIDR: string; serverAddress: string }[], secretName?: string): Promise<void> {
  const spec = { serverAddressByClientCIDRs: addresses, ...(secretName ? { secretRef: { name: secretName } } : {}) };
  expect((await call('POST', CLUSTERS, { apiVersion: 'federation/v1beta1', kind: 'Cluster', metadata: { name }, spec })).status).toBe(201);
}

const everywhere = (serverAddress: string) => [{ clientCIDR: '0.0.0.0/0', serverAddress }];

const conditionsOf = async (name: string): Promise<any[]> => (await call('GET', `${CLUSTERS}/${name}`)).json.status?.conditions ?? [];

/** Waits until the cluster's conditions are of these types and statuses; returns them. */
async function untilConditions(name: string, expected: string[], timeoutMs = 10_000): Promise<any[]> {
  let conditions: any[] = [];
  await until(async () => {
    conditions = await conditionsOf(name);
    return JSON.stringify(conditions.map((c) => `${c.type}=${c.status}`)) === JSON.stringify(expected);
  }, timeoutMs, 50).catch(() => {
    throw new Error(`cluster ${name} has conditions ${JSON.stringify(conditions)}, not ${expected.join(', ')}`);
  });
  return conditions;
}

const OFFLINE = { type: 'Offline', status: 'True', reason: 'ClusterNotReachable', message: 'cluster is not reachable' };
const READY = { type: 'Ready', status: 'True', reason: 'ClusterReady', message: '/healthz responded with ok' };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pgkube-cluster-controller-'));
  writeFileSync(join(work, 'tokens.csv'), `${TOKEN},federation,1\n`);
  member = await startTestServer(undefined, { SECURE_PORT: '0', CERT_DIR: join(work, 'certs'), TOKEN_AUTH_FILE: join(work, 'tokens.csv') });
  memberCa = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
  federation = await startTestServer(undefined, { CLUSTER_MONITOR_PERIOD: `${PERIOD_MS}ms` });
  await createNamespaces(federation.url, ['federation-system']);
});
afterAll(async () => {
  await federation?.close();
  if (!memberStopped) await member?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the cluster controller', () => {
  it('runs under its Lease in kube-system', async () => {
    const lease = await call('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/pgkube-cluster');
    expect(lease.json.spec.holderIdentity).toMatch(/_[0-9a-f-]{36}$/);
  });

  it('reports Ready=True for a pgkube instance reached with a kubeconfig Secret, keeping the transition time across probes', async () => {
    await secret('member-kubeconfig', { kubeconfig: kubeconfig('https://ignored.example:6443', memberCa) });
    await register('member', everywhere(member.secureUrl as string), 'member-kubeconfig');
    const [ready] = await untilConditions('member', ['Ready=True']);
    expect(ready).toEqual({ ...READY, lastProbeTime: expect.any(String), lastTransitionTime: expect.any(String) });
    let later = ready;
    await until(async () => ([later] = await conditionsOf('member')) && later.lastProbeTime !== ready.lastProbeTime, 5000, 100);
    expect(later).toEqual({ ...ready, lastProbeTime: later.lastProbeTime });
    expect(Date.parse(later.lastProbeTime)).toBeGreaterThan(Date.parse(ready.lastProbeTime));
    expect(await federation.sql("SELECT ready, offline FROM kube.clusters WHERE name = 'member'")).toEqual([{ ready: 'True', offline: null }]);
  });

  it("takes a service account's token and ca.crt, an address without a scheme, and the address of the client CIDR that holds this server", async () => {
    await secret('member-token', { token: TOKEN, 'ca.crt': memberCa });
    const hostPort = new URL(member.secureUrl as string).host;
    await register('by-token', [{ clientCIDR: '255.255.255.255/32', serverAddress: 'https://127.0.0.1:1' }, ...everywhere(hostPort)], 'member-token');
    expect(await untilConditions('by-token', ['Ready=True'])).toEqual([expect.objectContaining(READY)]);
  });

  it('reaches a cluster without a secretRef without credentials', async () => {
    await register('insecure', everywhere(member.url));
    expect(await untilConditions('insecure', ['Ready=True'])).toEqual([expect.objectContaining(READY)]);
  });

  it('verifies the certificate: the same member without its CA in the kubeconfig is not reachable', async () => {
    await secret('no-ca', { kubeconfig: kubeconfig('https://ignored.example:6443') });
    await register('untrusted', everywhere(member.secureUrl as string), 'no-ca');
    const [offline] = await untilConditions('untrusted', ['Offline=True']);
    expect(offline).toEqual(expect.objectContaining(OFFLINE));
    await until(async () => (await conditionsOf('untrusted'))[0].lastProbeTime !== offline.lastProbeTime, 5000, 100);
    expect((await conditionsOf('untrusted')).map((c) => `${c.type}=${c.status}`)).toEqual(['Offline=True']);
  });

  const fileCa = dump({
    clusters: [{ name: 'c', cluster: { 'certificate-authority': '/etc/kubernetes/pki/ca.crt' } }],
    users: [{ name: 'u', user: { token: TOKEN } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
  });
  it.each([
    ['missing', undefined, 'secret "missing" not found in namespace "federation-system"'],
    ['empty', {}, 'secret "federation-system/empty": the secret does not have data with key kubeconfig'],
    ['half', { token: TOKEN }, "secret \"federation-system/half\": the secret should have values for either both 'ca.crt' and 'token' in its data, or neither"],
    ['file-ca', { kubeconfig: fileCa }, 'secret "federation-system/file-ca": the kubeconfig uses certificate-authority, which the cluster controller does not take (only inline data)'],
  ])('says in the Offline condition what is wrong with the secret %s', async (name, data, message) => {
    if (data) await secret(name, data);
    await register(`secret-${name}`, everywhere(member.secureUrl as string), name);
    const [offline] = await untilConditions(`secret-${name}`, ['Offline=True']);
    expect(offline).toEqual(expect.objectContaining({ ...OFFLINE, message: `cluster is not reachable: ${message}` }));
  });

  it('turns a member Offline, no longer Ready, within two monitor periods of its stop', async () => {
    const [ready] = await untilConditions('member', ['Ready=True']);
    const stopping = Date.now();
    await member.close();
    memberStopped = true;
    const [offline] = await untilConditions('member', ['Offline=True'], 2 * PERIOD_MS);
    expect(offline).toEqual({ ...OFFLINE, lastProbeTime: expect.any(String), lastTransitionTime: expect.any(String) });
    expect(Date.parse(offline.lastTransitionTime)).toBeGreaterThanOrEqual(Math.floor(stopping / 1000) * 1000);
    expect(Date.parse(offline.lastTransitionTime)).toBeGreaterThan(Date.parse(ready.lastTransitionTime));
    expect(await federation.sql("SELECT ready, offline FROM kube.clusters WHERE name = 'member'")).toEqual([{ ready: null, offline: 'True' }]);
  });
});
