import { KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Greeter, startGreeter } from './support/greeter-controller';
import { http, HttpResult } from './support/http';
import { startTestServer, TestServer } from './support/test-server';
import { until } from './support/until';

/**
 * A controller written with @kubernetes/client-node (informer, Lease leader election, Events) runs against the secure
 * port as a ServiceAccount, with a token from the TokenRequest API and a Role that grants only what it needs: one of
 * two candidates leads at a time, the leader reports each ConfigMap with an Event, and when the leader stops without
 * giving the Lease up the other takes over once the Lease expires.
 */
jest.setTimeout(120_000);

const NAMESPACE = 'greeting';
const LEASE_SECONDS = 3;

let work: string;
let server: TestServer;
let token: string;
let ca: string;
const greeters: Greeter[] = [];

const admin = (method: string, path: string, body?: unknown): Promise<HttpResult> => http(server.url, method, path, { body });
const asGreeter = (method: string, path: string, body?: unknown): Promise<HttpResult> =>
  http(server.secureUrl as string, method, path, { body, headers: { authorization: `Bearer ${token}` }, tls: { ca } });

const created = async (path: string, body: unknown) => {
  const answer = await admin('POST', path, body);
  expect([answer.status, answer.json?.message]).toEqual([201, undefined]);
  return answer.json;
};

function kubeconfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'pgkube', server: server.secureUrl as string, caData: Buffer.from(ca).toString('base64') }],
    users: [{ name: 'greeter', token }],
    contexts: [{ name: 'greeter', cluster: 'pgkube', user: 'greeter' }],
    currentContext: 'greeter',
  });
  return config;
}

const eventsAbout = async (name: string) =>
  (await admin('GET', `/api/v1/namespaces/${NAMESPACE}/events?fieldSelector=involvedObject.name=${name}`)).json.items as any[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pgkube-controller-'));
  server = await startTestServer(undefined, { SECURE_PORT: '0', CERT_DIR: join(work, 'certs') });
  ca = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
  await created('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await created(`/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'greeter' } });
  await created(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'greeter' },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
    ],
  });
  await created(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'greeter' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'greeter' },
    subjects: [{ kind: 'ServiceAccount', name: 'greeter', namespace: NAMESPACE }],
  });
  const request = await created(`/api/v1/namespaces/${NAMESPACE}/serviceaccounts/greeter/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: {},
  });
  token = request.status.token;
});

afterAll(async () => {
  await Promise.all(greeters.map((g) => g.stop()));
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

it('has only the rights its Role grants', async () => {
  await created(`/api/v1/namespaces/${NAMESPACE}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' } });
  expect((await asGreeter('GET', `/api/v1/namespaces/${NAMESPACE}/configmaps/probe`)).status).toBe(200);
  const denied = await asGreeter('DELETE', `/api/v1/namespaces/${NAMESPACE}/configmaps/probe`);
  expect([denied.status, denied.json.message]).toEqual([
    403,
    `configmaps "probe" is forbidden: User "system:serviceaccount:${NAMESPACE}:greeter" cannot delete resource "configmaps" in API group "" in the namespace "${NAMESPACE}"`,
  ]);
  expect((await asGreeter('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(403);
});

it('leads with one candidate at a time, reports with Events, and hands over when the leader stops', async () => {
  const options = (identity: string) => ({ namespace: NAMESPACE, identity, leaseName: 'greeter', leaseDurationSeconds: LEASE_SECONDS });
  greeters.push(startGreeter(kubeconfig(), options('a')), startGreeter(kubeconfig(), options('b')));
  let bothLed = false;
  const watchdog = setInterval(() => (bothLed ||= greeters.every((g) => g.leading)), 20);
  try {
    await until(() => greeters.some((g) => g.leading));
    const first = greeters.findIndex((g) => g.leading);
    const [leader, follower] = first === 0 ? ['a', 'b'] : ['b', 'a'];
    const lease = (await admin('GET', `/apis/coordination.k8s.io/v1/namespaces/${NAMESPACE}/leases/greeter`)).json;
    expect(lease.spec.holderIdentity).toBe(leader);

    await created(`/api/v1/namespaces/${NAMESPACE}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' } });
    await until(async () => (await eventsAbout('one')).length > 0);
    const [event] = await eventsAbout('one');
    expect([event.reason, event.reportingInstance, event.involvedObject.kind]).toEqual(['Greeted', leader, 'ConfigMap']);

    const stoppedAt = Date.now();
    await greeters[first].stop(); // as if its process died: the Lease is not given up
    await until(() => greeters[1 - first].leading, (LEASE_SECONDS + 5) * 1000);
    expect(Date.now() - stoppedAt).toBeLessThan((LEASE_SECONDS + 2) * 1000);
    await created(`/api/v1/namespaces/${NAMESPACE}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two' } });
    await until(async () => (await eventsAbout('two')).length > 0);
    expect((await eventsAbout('two')).map((e) => e.reportingInstance)).toEqual([follower]);
    const taken = (await admin('GET', `/apis/coordination.k8s.io/v1/namespaces/${NAMESPACE}/leases/greeter`)).json;
    expect([taken.spec.holderIdentity, taken.spec.leaseTransitions]).toEqual([follower, 1]);
  } finally {
    clearInterval(watchdog);
  }
  expect(bothLed).toBe(false);
});
