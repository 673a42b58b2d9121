import { dump } from 'js-yaml';
import { useTestServer } from './support/api';
import { CRONTAB_SCHEMA, crontabCrd } from './support/crontab-definition';
import { v1Event } from './support/events';
import { kubectl } from './support/kubectl';
import { untilStatus } from './support/two-instances';
import { WatchClient } from './support/watch-client';

/**
 * What holds for every kind served in several versions over the same stored objects, shown with Events (core/v1
 * stored, events.k8s.io/v1 converted with renamed fields): server-side apply's field ownership in each manager's
 * version, watches in the watched version, dry runs in the requested one.
 */
const { call, server } = useTestServer();
const CORE = '/api/v1/namespaces/default/events';
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

/** The same event as core/v1 names its fields. */
const coreOf = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2026-01-01T00:00:00.123456Z',
  reportingComponent: 'example.com/operator',
  reportingInstance: 'operator-0',
  action: 'Reconcile',
  reason: 'Synced',
  involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'settings' },
  related: { kind: 'Pod', namespace: 'default', name: 'operator-0' },
  message: 'settings synced',
  type: 'Normal',
  series: { count: 2, lastObservedTime: '2026-01-01T00:05:00.000001Z' },
  ...extra,
});

const apply = (path: string, manager: string, body: unknown, query = '') => call('PATCH', `${path}?fieldManager=${manager}${query}`, dump(body), APPLY);
const entry = (object: any, manager: string) => object.metadata.managedFields.find((e: any) => e.manager === manager);

describe('server-side apply across versions', () => {
  afterEach(() => call('DELETE', CORE));

  it('refuses to change through one version what a manager applied through the other, naming it and the field in its version', async () => {
    expect((await apply(`${V1}/owned`, 'operator', v1Event('owned'))).status).toBe(201);
    const conflict = await apply(`${CORE}/owned`, 'fixer', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'owned' }, message: 'fixed' });
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({ kind: 'Status', reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "operator": .note' });
    expect(conflict.json.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "operator"', field: '.note' }]);
    expect((await call('GET', `${V1}/owned`)).json.note).toBe('settings synced');

    const forced = await apply(`${CORE}/owned`, 'fixer', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'owned' }, message: 'fixed' }, '&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.message).toBe('fixed');
    // each entry stays in the version its manager wrote in; the operator no longer owns the note
    const operator = entry(forced.json, 'operator');
    expect(operator).toMatchObject({ operation: 'Apply', apiVersion: 'events.k8s.io/v1' });
    expect(operator.fieldsV1).not.toHaveProperty('f:note');
    expect(operator.fieldsV1).toHaveProperty('f:reportingController');
    expect(entry(forced.json, 'fixer')).toMatchObject({ operation: 'Apply', apiVersion: 'v1', fieldsV1: { 'f:message': {} } });
    // readers of either version see the same entries
    expect((await call('GET', `${V1}/owned`)).json.metadata.managedFields).toEqual(forced.json.metadata.managedFields);
  });

  it('refuses the other way round: a core/v1 applier’s message is the note of events.k8s.io/v1', async () => {
    expect((await apply(`${CORE}/legacy`, 'core-op', coreOf('legacy'))).status).toBe(201);
    const conflict = await apply(`${V1}/legacy`, 'v1-op', { ...v1Event('legacy'), note: 'other', reportingController: 'example.com/operator' });
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "core-op": .message');
    // the same values through the other version are shared, not a conflict (as upstream's)
    const same = await apply(`${V1}/legacy`, 'v1-op', v1Event('legacy', { metadata: { name: 'legacy', labels: { by: 'v1' } } }));
    expect(same.status).toBe(200);
    expect(entry(same.json, 'v1-op')).toMatchObject({ apiVersion: 'events.k8s.io/v1', fieldsV1: expect.objectContaining({ 'f:note': {} }) });
    expect(entry(same.json, 'core-op')).toMatchObject({ apiVersion: 'v1', fieldsV1: expect.objectContaining({ 'f:message': {} }) });
  });

  it('conflicts with an updater of the other version, named with its version', async () => {
    expect((await call('POST', `${CORE}?fieldManager=writer`, { ...coreOf('updated'), count: 0 })).status).toBe(201);
    const conflict = await apply(`${V1}/updated`, 'v1-op', { ...v1Event('updated'), note: 'other' });
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "writer" using v1: .message');
  });

  it('removes what a manager applied in one version and no longer applies in the other', async () => {
    const created = await apply(`${V1}/moving`, 'mover', v1Event('moving', { metadata: { name: 'moving', labels: { a: '1', b: '2' } } }));
    expect(created.status).toBe(201);
    // through core/v1, without the related object and the message
    const { message: _message, related: _related, ...config } = coreOf('moving', { metadata: { name: 'moving', labels: { a: '1' } } });
    const moved = await apply(`${CORE}/moving`, 'mover', config);
    expect(moved.status).toBe(200);
    expect(moved.json.metadata.labels).toEqual({ a: '1' });
    expect(moved.json).not.toHaveProperty('related');
    expect(moved.json).not.toHaveProperty('message');
    expect(moved.json.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'mover', operation: 'Apply', apiVersion: 'v1' })]);
    const fields = moved.json.metadata.managedFields[0].fieldsV1;
    expect(fields).toHaveProperty('f:reportingComponent');
    expect(fields).not.toHaveProperty('f:reportingController');
  });

  it('keeps what another manager owns in its version when an applier stops applying it', async () => {
    expect((await apply(`${V1}/shared`, 'first', v1Event('shared'))).status).toBe(201);
    // a second manager applies the same message through core/v1: both own it
    expect((await apply(`${CORE}/shared`, 'second', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'shared' }, message: 'settings synced' })).status).toBe(200);
    const { note: _note, ...withoutNote } = v1Event('shared');
    const dropped = await apply(`${V1}/shared`, 'first', withoutNote);
    expect(dropped.status).toBe(200);
    expect(dropped.json.note).toBe('settings synced');
    expect(entry(dropped.json, 'second').fieldsV1).toEqual({ 'f:message': {} });
    expect(entry(dropped.json, 'first').fieldsV1).not.toHaveProperty('f:note');
  });

  it.each([
    ['v1', 'kubectl-core', (name: string) => coreOf(name)],
    ['events.k8s.io/v1', 'kubectl-v1', (name: string) => v1Event(name)],
  ])('kubectl apply --server-side through %s, then a conflict from the other version', async (version, name, manifest) => {
    const run = (args: string[], input?: string) => kubectl({ tag: 'path', binary: 'kubectl' }, server().url, args, input);
    const applied = await run(['apply', '--server-side', '-n', 'default', '-f', '-'], dump(manifest(name)));
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('serverside-applied');
    const other = version === 'v1' ? `${V1}/${name}` : `${CORE}/${name}`;
    const otherBody = version === 'v1' ? { ...v1Event(name), note: 'other' } : { apiVersion: 'v1', kind: 'Event', metadata: { name }, message: 'other' };
    const conflict = await apply(other, 'someone', otherBody);
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe(`Apply failed with 1 conflict: conflict with "kubectl": .${version === 'v1' ? 'message' : 'note'}`);
    const again = await run(['apply', '--server-side', '-n', 'default', '-f', '-', '-o', 'json', '--show-managed-fields'], dump(manifest(name)));
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout).metadata.managedFields).toEqual([expect.objectContaining({ manager: 'kubectl', operation: 'Apply', apiVersion: version })]);
  });
});

describe('watches in the watched version', () => {
  afterEach(() => call('DELETE', CORE));

  it('resumes from a resourceVersion with the writes of the other version, selected by its own field names', async () => {
    const first = await call('POST', CORE, coreOf('resumed'));
    expect(first.status).toBe(201);
    await call('POST', CORE, coreOf('elsewhere', { involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'other' } }));
    await call('PATCH', `${CORE}/resumed`, { message: 'changed through core' }, { 'content-type': 'application/merge-patch+json' });
    const rv = first.json.metadata.resourceVersion;
    const v1Watch = await WatchClient.open(server().url, `${V1}?watch=1&resourceVersion=${rv}&fieldSelector=regarding.name%3Dsettings`);
    const coreWatch = await WatchClient.open(server().url, `${CORE}?watch=1&resourceVersion=${rv}&fieldSelector=involvedObject.name%3Dsettings`);
    try {
      await call('POST', V1, v1Event('later'));
      await v1Watch.count(2);
      await coreWatch.count(2);
      expect(v1Watch.summary()).toEqual(['MODIFIED resumed', 'ADDED later']);
      expect(coreWatch.summary()).toEqual(['MODIFIED resumed', 'ADDED later']);
      expect(v1Watch.events[0].object).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'changed through core', regarding: { name: 'settings' } });
      expect(v1Watch.events[0].object).not.toHaveProperty('message');
      expect(coreWatch.events[1].object).toMatchObject({ apiVersion: 'v1', kind: 'Event', message: 'settings synced', reportingComponent: 'example.com/operator' });
    } finally {
      v1Watch.close();
      coreWatch.close();
    }
  });

  it('streams the initial state and its bookmark in the watched version', async () => {
    await call('POST', CORE, coreOf('initial'));
    const watch = await WatchClient.open(server().url, `${V1}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    try {
      await watch.count(2);
      expect(watch.events[0]).toMatchObject({ type: 'ADDED', object: { apiVersion: 'events.k8s.io/v1', note: 'settings synced' } });
      expect(watch.events[1]).toMatchObject({
        type: 'BOOKMARK',
        object: { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } },
      });
    } finally {
      watch.close();
    }
  });
});

describe('dry runs in a converted version', () => {
  afterEach(() => call('DELETE', CORE));

  it('write nothing and answer in the requested version', async () => {
    const created = await call('POST', `${V1}?dryRun=All&fieldManager=dry`, v1Event('dry'));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'settings synced', metadata: { managedFields: [{ manager: 'dry', apiVersion: 'events.k8s.io/v1' }] } });
    expect(created.json).not.toHaveProperty('message');
    expect((await call('GET', `${CORE}/dry`)).status).toBe(404);

    const stored = (await call('POST', CORE, coreOf('kept'))).json;
    const applied = await apply(`${V1}/kept`, 'dry', v1Event('kept', { metadata: { name: 'kept', labels: { dry: 'run' } } }), '&dryRun=All');
    expect(applied.status).toBe(200);
    expect(applied.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'settings synced', metadata: { labels: { dry: 'run' } } });
    const patched = await call('PATCH', `${V1}/kept?dryRun=All`, { metadata: { labels: { dry: 'patch' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', metadata: { labels: { dry: 'patch' } } });
    const after = (await call('GET', `${CORE}/kept`)).json;
    expect(after.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
    expect(after.metadata).not.toHaveProperty('labels');
    expect(after.metadata.managedFields).toEqual(stored.metadata.managedFields);
  });
});

describe('server-side apply of a custom resource served in two versions', () => {
  const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  const tabs = (version: string) => `/apis/stable.example.com/${version}/namespaces/default/crontabs`;
  const version = (name: string, served: boolean, storage: boolean) => ({ name, served, storage, schema: { openAPIV3Schema: CRONTAB_SCHEMA } });
  const applyTab = (v: string, manager: string, spec: Record<string, unknown>) =>
    apply(`${tabs(v)}/tab`, manager, { apiVersion: `stable.example.com/${v}`, kind: 'CronTab', metadata: { name: 'tab' }, spec });

  it('keeps each manager in its version, and lets go of the managers of a version no longer served', async () => {
    expect((await call('POST', CRDS, crontabCrd([version('v1', true, true), version('v2', true, false)]))).status).toBe(201);
    await untilStatus(server(), tabs('v2'), 200);
    expect((await applyTab('v1', 'one', { cronSpec: '* * * * */5', image: 'a' })).status).toBe(201);
    const conflict = await applyTab('v2', 'two', { cronSpec: '* * * * */5', image: 'b' });
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "one": .spec.image');
    const shared = await applyTab('v2', 'two', { cronSpec: '* * * * */5', args: ['x'] });
    expect(shared.status).toBe(200);
    expect(shared.json.metadata.managedFields.map((e: any) => [e.manager, e.apiVersion])).toEqual([
      ['one', 'stable.example.com/v1'],
      ['two', 'stable.example.com/v2'],
    ]);

    const crd = (await call('GET', `${CRDS}/crontabs.stable.example.com`)).json;
    const unserved = await call('PUT', `${CRDS}/crontabs.stable.example.com`, { ...crd, spec: { ...crd.spec, versions: [version('v1', true, true), version('v2', false, false)] } });
    expect(unserved.status).toBe(200);
    await untilStatus(server(), tabs('v2'), 404);
    // as upstream's: the entries of a version the objects are no longer served in go at the next write
    const taken = await applyTab('v1', 'one', { cronSpec: '* * * * */5', image: 'a', args: ['y'] });
    expect(taken.status).toBe(200);
    expect(taken.json.metadata.managedFields.map((e: any) => [e.manager, e.apiVersion])).toEqual([['one', 'stable.example.com/v1']]);
    expect((await call('DELETE', `${CRDS}/crontabs.stable.example.com`)).status).toBe(200);
  });
});
