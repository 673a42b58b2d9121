import { decodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { useTestServer } from './support/api';
import { kubectl, KUBECTLS } from './support/kubectl';
import { PROTOBUF } from './support/protobuf';
import { expectFailure } from './support/status';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

/**
 * Role, ClusterRole, RoleBinding and ClusterRoleBinding are ordinary kinds of rbac.authorization.k8s.io, served in v1
 * and v1beta1 over the same stored objects, with upstream's validation and defaults.
 */
const { call, server } = useTestServer(['team-a', ...KUBECTLS.map((client) => `kubectl-${client.tag}`)], WITHOUT_DEPLOYMENT_CONTROLLER);
const V1 = '/apis/rbac.authorization.k8s.io/v1';
const V1BETA1 = '/apis/rbac.authorization.k8s.io/v1beta1';

const role = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
const readPods = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] };

it('is discovered with v1 preferred', async () => {
  const group = await call('GET', '/apis/rbac.authorization.k8s.io');
  expect(group.json.preferredVersion.version).toBe('v1');
  expect(group.json.versions.map((v: any) => v.version)).toEqual(['v1', 'v1beta1']);
  const resources = await call('GET', V1BETA1);
  expect(resources.json.resources.map((r: any) => `${r.name}:${r.namespaced}`)).toEqual([
    'clusterrolebindings:false',
    'clusterroles:false',
    'rolebindings:true',
    'roles:true',
  ]);
});

it('stores a Role through one version and serves it through the other', async () => {
  const created = await call('POST', `${V1}/namespaces/team-a/roles`, role('pod-reader', [readPods]));
  expect(created.status).toBe(201);
  const old = await call('GET', `${V1BETA1}/namespaces/team-a/roles/pod-reader`);
  expect(old.json).toMatchObject({ apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'Role', rules: [readPods] });
  expect(old.json.metadata.selfLink).toBe(`${V1BETA1}/namespaces/team-a/roles/pod-reader`);
  const pb = await call('GET', `${V1}/namespaces/team-a/roles/pod-reader`, undefined, { accept: PROTOBUF });
  expect((decodeEnveloped(pb.bytes) as any).rules).toEqual([readPods]);
  const [view] = await server().sql<{ rule_count: number }>(`SELECT rule_count FROM kube.roles WHERE name = 'pod-reader'`);
  expect(view.rule_count).toBe(1);
});

it('refuses rules without verbs, groups or resources, and non-resource URLs in a Role', async () => {
  const bad = await call('POST', `${V1}/namespaces/team-a/roles`, role('bad', [{ resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }]));
  expectFailure(bad, 422, 'Invalid');
  expect(bad.json.details.causes.map((c: any) => c.field)).toEqual(['rules[0].verbs', 'rules[0].apiGroups', 'rules[1].nonResourceURLs']);
  expect(bad.json.details.causes[2].message).toContain('namespaced rules cannot apply to non-resource URLs');
});

it('serves ClusterRoles with non-resource rules and checks their aggregation rule', async () => {
  const ok = await call('POST', `${V1}/clusterroles`, {
    kind: 'ClusterRole',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    metadata: { name: 'health-reader' },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/healthz/*'] }],
  });
  expect(ok.status).toBe(201);
  const bad = await call('POST', `${V1}/clusterroles`, { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [] } });
  expectFailure(bad, 422, 'Invalid');
  expect(bad.json.details.causes[0].field).toBe('aggregationRule.clusterRoleSelectors');
});

it('defaults and checks bindings, whose roleRef cannot change', async () => {
  const binding = {
    metadata: { name: 'read-pods' },
    subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'builder' }],
    roleRef: { kind: 'Role', name: 'pod-reader' },
  };
  const created = await call('POST', `${V1}/namespaces/team-a/rolebindings`, binding);
  expect(created.status).toBe(201);
  expect(created.json.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
  expect(created.json.subjects[0].apiGroup).toBe('rbac.authorization.k8s.io');
  const changed = await call('PUT', `${V1}/namespaces/team-a/rolebindings/read-pods`, { ...created.json, roleRef: { ...created.json.roleRef, name: 'other' } });
  expectFailure(changed, 422, 'Invalid');
  expect(changed.json.details.causes).toEqual([expect.objectContaining({ field: 'roleRef', message: expect.stringContaining('cannot change roleRef') })]);
  const cluster = await call('POST', `${V1}/clusterrolebindings`, {
    metadata: { name: 'x' },
    subjects: [{ kind: 'ServiceAccount', name: 'builder' }, { kind: 'Robot', name: 'r2' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
  });
  expectFailure(cluster, 422, 'Invalid');
  expect(cluster.json.details.causes.map((c: any) => `${c.reason} ${c.field}`)).toEqual([
    'FieldValueNotSupported roleRef.kind',
    'FieldValueRequired subjects[0].namespace',
    'FieldValueNotSupported subjects[1].kind',
  ]);
});

it('is watched through either version', async () => {
  const watch = await WatchClient.open(server().url, `${V1BETA1}/clusterrolebindings?watch=true`);
  try {
    const created = await call('POST', `${V1}/clusterrolebindings`, {
      metadata: { name: 'health' },
      subjects: [{ kind: 'Group', name: 'system:authenticated' }],
      roleRef: { kind: 'ClusterRole', name: 'health-reader' },
    });
    expect(created.status).toBe(201);
    const [event] = await watch.until((events) => events.some((e) => e.object.metadata.name === 'health'));
    expect(event.object.apiVersion).toBe('rbac.authorization.k8s.io/v1beta1');
  } finally {
    watch.close();
  }
});

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  const run = (args: string[]) => kubectl(client, server().url, args);
  const namespace = `kubectl-${client.tag}`;

  it('creates roles and bindings and prints them as upstream does', async () => {
    const role = await run(['create', 'role', 'reader', '--verb=get,list', '--resource=deployments.extensions', `--namespace=${namespace}`]);
    expect(role.stderr).toBe('');
    const binding = await run(['create', 'rolebinding', 'jane-reads', '--role=reader', '--user=jane', '--group=devs', `--namespace=${namespace}`]);
    expect(binding.stderr).toBe('');
    const roles = await run(['get', 'roles', `--namespace=${namespace}`]);
    expect(roles.stdout).toMatch(/^NAME\s+CREATED AT\nreader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
    const bindings = await run(['get', 'rolebindings', '-o', 'wide', `--namespace=${namespace}`]);
    expect(bindings.stdout).toMatch(/^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\njane-reads\s+Role\/reader\s+\S+\s+jane\s+devs\s*\n$/);
    const stored = JSON.parse((await run(['get', 'role', 'reader', '-o', 'json', `--namespace=${namespace}`])).stdout);
    expect(stored.rules).toEqual([{ apiGroups: ['extensions'], resources: ['deployments'], verbs: ['get', 'list'] }]);
  });

  it('shows the default cluster roles, view with its aggregated rules', async () => {
    const view = JSON.parse((await run(['get', 'clusterrole', 'view', '-o', 'json'])).stdout);
    expect(view.rules).toContainEqual(expect.objectContaining({ apiGroups: ['extensions'], verbs: ['get', 'list', 'watch'] }));
    const bindings = await run(['get', 'clusterrolebindings']);
    expect(bindings.stdout).toMatch(/\ncluster-admin\s+ClusterRole\/cluster-admin\s+/);
  });
});
