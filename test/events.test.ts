import { Reader } from 'protobufjs';
import { useTestServer } from './support/api';
import { v1Event } from './support/events';
import { PROTOBUF, unwrap } from './support/protobuf';
import { until } from './support/until';
import { WatchClient } from './support/watch-client';

const { call, server } = useTestServer(['doomed']);
const CORE = '/api/v1/namespaces/default/events';
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';

const coreEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u-1', apiVersion: 'v1', fieldPath: 'spec.containers{web}' },
  reason: 'Pulled',
  message: 'Image pulled',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:01:00Z',
  count: 3,
  type: 'Normal',
  ...extra,
});

describe('Events in core/v1 and events.k8s.io/v1', () => {
  afterEach(() => call('DELETE', CORE));

  it('serves both in discovery with the short name ev', async () => {
    const core = (await call('GET', '/api/v1')).json.resources.find((r: any) => r.name === 'events');
    expect(core).toMatchObject({ kind: 'Event', namespaced: true, shortNames: ['ev'] });
    const group = (await call('GET', '/apis/events.k8s.io/v1')).json.resources;
    expect(group).toEqual([expect.objectContaining({ name: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] })]);
  });

  it('reads an event created through core/v1 through events.k8s.io/v1, renamed field by field', async () => {
    const created = await call('POST', CORE, coreEvent('pulled'));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ reportingComponent: '', reportingInstance: '', count: 3 });
    const read = await call('GET', `${V1}/pulled`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      regarding: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{web}' },
      note: 'Image pulled',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
      deprecatedCount: 3,
      reason: 'Pulled',
      type: 'Normal',
    });
    for (const coreName of ['involvedObject', 'message', 'source', 'count', 'firstTimestamp', 'reportingComponent', 'reportingInstance']) {
      expect(read.json).not.toHaveProperty(coreName);
    }
    expect(read.json.metadata.selfLink).toBe(`${V1}/pulled`);
    expect(read.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  it('keeps every field of an events.k8s.io/v1 event through core/v1 and back', async () => {
    const created = await call('POST', V1, v1Event('synced'));
    expect(created.status).toBe(201);
    const core = (await call('GET', `${CORE}/synced`)).json;
    expect(core).toMatchObject({
      involvedObject: { kind: 'ConfigMap', name: 'settings' },
      related: { kind: 'Pod', name: 'operator-0' },
      message: 'settings synced',
      reportingComponent: 'example.com/operator',
      reportingInstance: 'operator-0',
      action: 'Reconcile',
      eventTime: '2026-01-01T00:00:00.123456Z',
      series: { count: 2, lastObservedTime: '2026-01-01T00:05:00.000001Z' },
    });
    const [stored] = await server().sql(`SELECT body FROM objects WHERE api_group = '' AND resource = 'events' AND name = 'synced'`);
    expect(stored.body).toMatchObject({ apiVersion: 'v1', message: 'settings synced', involvedObject: { name: 'settings' } });
    expect(stored.body).not.toHaveProperty('note');
    const { metadata: _m, ...sent } = v1Event('synced');
    const again = (await call('GET', `${V1}/synced`)).json;
    expect(again).toMatchObject(sent);
    // a PUT through core/v1 of what it read, then a read through events.k8s.io/v1: nothing lost either way
    const put = await call('PUT', `${CORE}/synced`, { ...core, metadata: { ...core.metadata, labels: { round: 'trip' } } });
    expect(put.status).toBe(200);
    const after = (await call('GET', `${V1}/synced`)).json;
    expect({ ...after, metadata: undefined }).toEqual({ ...again, metadata: undefined });
    expect(after.metadata.labels).toEqual({ round: 'trip' });
  });

  it('patches through the other version and answers in the requested one', async () => {
    await call('POST', V1, v1Event('patched'));
    const merge = await call('PATCH', `${CORE}/patched`, { message: 'changed through core', count: 0 }, { 'content-type': 'application/merge-patch+json' });
    expect(merge.status).toBe(200);
    expect(merge.json.message).toBe('changed through core');
    expect((await call('GET', `${V1}/patched`)).json.note).toBe('changed through core');
    const strategic = await call('PATCH', `${CORE}/patched`, { metadata: { labels: { a: 'b' } } }, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(strategic.status).toBe(200);
    await call('POST', CORE, coreEvent('legacy'));
    const v1Patch = await call('PATCH', `${V1}/legacy`, { metadata: { labels: { seen: 'yes' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(v1Patch.status).toBe(200);
    expect(v1Patch.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'Image pulled', metadata: { labels: { seen: 'yes' } } });
    expect((await call('GET', `${CORE}/legacy`)).json).toMatchObject({ message: 'Image pulled', metadata: { labels: { seen: 'yes' } } });
    // labels written through one version select through the other
    const byLabel = await call('GET', `${CORE}?labelSelector=seen%3Dyes`);
    expect(byLabel.json.items.map((e: any) => e.metadata.name)).toEqual(['legacy']);
    const byOtherLabel = await call('GET', `${V1}?labelSelector=a%3Db`);
    expect(byOtherLabel.json.items.map((e: any) => [e.metadata.name, e.note])).toEqual([['patched', 'changed through core']]);
  });

  it('applies server-side through events.k8s.io/v1 and records the manager in that version', async () => {
    const applied = await call('PATCH', `${V1}/applied?fieldManager=op`, JSON.stringify(v1Event('applied')), { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(201);
    expect(applied.json.note).toBe('settings synced');
    expect(applied.json.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'op', operation: 'Apply', apiVersion: 'events.k8s.io/v1' })]);
    expect(JSON.stringify(applied.json.metadata.managedFields[0].fieldsV1)).toContain('f:note');
    const core = (await call('GET', `${CORE}/applied`)).json;
    expect(core.message).toBe('settings synced');
    const again = await call('PATCH', `${V1}/applied?fieldManager=op`, JSON.stringify(v1Event('applied', { metadata: { name: 'applied', labels: { x: 'y' } } })), {
      'content-type': 'application/apply-patch+yaml',
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ note: 'settings synced', metadata: { labels: { x: 'y' } } });
  });

  it('lists and watches through either version what was written through the other', async () => {
    const list0 = await call('GET', V1);
    const coreWatch = await WatchClient.open(server().url, `${CORE}?watch=1&resourceVersion=${list0.json.metadata.resourceVersion}`);
    const v1Watch = await WatchClient.open(server().url, `${V1}?watch=1&resourceVersion=${list0.json.metadata.resourceVersion}`);
    try {
      await call('POST', V1, v1Event('from-v1'));
      await call('POST', CORE, coreEvent('from-core'));
      await call('DELETE', `${V1}/from-core`);
      await coreWatch.count(3);
      await v1Watch.count(3);
      expect(coreWatch.summary()).toEqual(['ADDED from-v1', 'ADDED from-core', 'DELETED from-core']);
      expect(v1Watch.summary()).toEqual(['ADDED from-v1', 'ADDED from-core', 'DELETED from-core']);
      expect(coreWatch.events[0].object).toMatchObject({ apiVersion: 'v1', message: 'settings synced' });
      expect(v1Watch.events[1].object).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'Image pulled', regarding: { name: 'web-1' } });
    } finally {
      coreWatch.close();
      v1Watch.close();
    }
    const list = await call('GET', V1);
    expect(list.json).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1' });
    expect(list.json.items.map((e: any) => e.metadata.name)).toEqual(['from-v1']);
    expect(list.json.items[0]).toMatchObject({ note: 'settings synced' });
  });

  it('selects by the fields upstream allows, under each version’s names', async () => {
    await call('POST', CORE, coreEvent('pod-event'));
    await call('POST', V1, v1Event('cm-event', { type: 'Warning' }));
    await call('POST', CORE, coreEvent('new-reporter', { source: {}, reportingComponent: 'ctrl', reportingInstance: 'c-0', eventTime: '2026-01-01T00:00:00.000000Z', action: 'A' }));
    const names = async (path: string) => {
      const got = await call('GET', path);
      expect(got.status).toBe(200);
      return got.json.items.map((e: any) => e.metadata.name).sort();
    };
    expect(await names(`${CORE}?fieldSelector=involvedObject.kind%3DConfigMap`)).toEqual(['cm-event']);
    expect(await names(`${CORE}?fieldSelector=involvedObject.name%3Dweb-1,reason%3DPulled`)).toEqual(['new-reporter', 'pod-event']);
    expect(await names(`${CORE}?fieldSelector=type%3DWarning`)).toEqual(['cm-event']);
    expect(await names(`${CORE}?fieldSelector=source%3Dkubelet`)).toEqual(['pod-event']);
    expect(await names(`${CORE}?fieldSelector=source%3Dctrl`)).toEqual(['new-reporter']);
    expect(await names(`${CORE}?fieldSelector=reportingComponent%3Dexample.com%2Foperator`)).toEqual(['cm-event']);
    expect(await names(`${CORE}?fieldSelector=involvedObject.fieldPath%3Dspec.containers%7Bweb%7D`)).toEqual(['new-reporter', 'pod-event']);
    expect(await names(`${V1}?fieldSelector=regarding.kind%3DConfigMap`)).toEqual(['cm-event']);
    expect(await names(`${V1}?fieldSelector=reportingController%3Dexample.com%2Foperator`)).toEqual(['cm-event']);
    expect(await names(`${V1}?fieldSelector=regarding.name%21%3Dweb-1`)).toEqual(['cm-event']);
    // each version knows only its own names
    expect((await call('GET', `${V1}?fieldSelector=involvedObject.kind%3DPod`)).status).toBe(400);
    expect((await call('GET', `${CORE}?fieldSelector=regarding.kind%3DPod`)).status).toBe(400);
    // a watch filters by the same fields
    const watch = await WatchClient.open(server().url, `${V1}?watch=1&fieldSelector=type%3DWarning`);
    try {
      await watch.count(1);
      expect(watch.summary()).toEqual(['ADDED cm-event']);
    } finally {
      watch.close();
    }
  });

  it('speaks protobuf with upstream’s field numbers in each version, and takes back what it wrote', async () => {
    await call('POST', CORE, coreEvent('wire'));
    /** The top-level string fields of a message, by number. */
    const strings = (raw: Buffer) => {
      const reader = Reader.create(raw);
      const fields: Record<number, string> = {};
      while (reader.pos < reader.len) {
        const tag = reader.uint32();
        if ((tag & 7) === 2) fields[tag >>> 3] = Buffer.from(reader.bytes()).toString('latin1');
        else reader.skipType(tag & 7);
      }
      return fields;
    };
    for (const [path, message, reason] of [[CORE, 4, 3], [V1, 10, 7]] as const) {
      const got = await call('GET', `${path}/wire`, undefined, { accept: PROTOBUF });
      expect(got.headers.get('content-type')).toBe(PROTOBUF);
      const fields = strings(unwrap(got.bytes).raw);
      expect([fields[message], fields[reason]]).toEqual(['Image pulled', 'Pulled']);
      const before = (await call('GET', `${path}/wire`)).json;
      const put = await call('PUT', `${path}/wire`, got.bytes, { 'content-type': PROTOBUF, accept: 'application/json' });
      expect(put.status).toBe(200);
      expect(put.json).toEqual(before); // the same object: no new resourceVersion either
    }
  });

  it('goes with its namespace; watchers of both versions see each deletion once', async () => {
    const core = '/api/v1/namespaces/doomed/events';
    const v1 = '/apis/events.k8s.io/v1/namespaces/doomed/events';
    const inDoomed = (o: any) => ({ ...o, involvedObject: undefined, regarding: { kind: 'ConfigMap', namespace: 'doomed', name: 'settings' }, related: undefined, metadata: { ...o.metadata, namespace: 'doomed' } });
    expect((await call('POST', core, { ...coreEvent('a'), involvedObject: { kind: 'Pod', namespace: 'doomed', name: 'p' } })).status).toBe(201);
    expect((await call('POST', v1, inDoomed(v1Event('b')))).status).toBe(201);
    const start = (await call('GET', core)).json.metadata.resourceVersion;
    const coreWatch = await WatchClient.open(server().url, `${core}?watch=1&resourceVersion=${start}`);
    const v1Watch = await WatchClient.open(server().url, `${v1}?watch=1&resourceVersion=${start}`);
    try {
      expect((await call('DELETE', '/api/v1/namespaces/doomed')).status).toBe(200);
      await until(async () => (await call('GET', '/api/v1/namespaces/doomed')).status === 404, 15_000);
      await coreWatch.count(2);
      await v1Watch.count(2);
      expect(coreWatch.summary().sort()).toEqual(['DELETED a', 'DELETED b']);
      expect(v1Watch.summary().sort()).toEqual(['DELETED a', 'DELETED b']);
      const deletions = await server().sql(`SELECT name FROM change_log WHERE api_group = '' AND resource = 'events' AND namespace = 'doomed' AND event_type = 'DELETED'`);
      expect(deletions.map((row) => row.name).sort()).toEqual(['a', 'b']);
    } finally {
      coreWatch.close();
      v1Watch.close();
    }
  });

  it('are read by the default view role (and so by edit and admin), as upstream’s', async () => {
    const readsEvents = (rules: any[]) => rules.some((r) => r.apiGroups?.includes('') && r.resources?.includes('events') && ['get', 'list', 'watch'].every((v) => r.verbs.includes(v)));
    await until(async () => readsEvents((await call('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/view')).json.rules ?? []), 5000);
    const edit = (await call('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/edit')).json.rules;
    expect(edit.some((r: any) => r.resources?.includes('events') && r.verbs.includes('create'))).toBe(false);
  });

  it('creates an event with a PUT, as upstream’s AllowCreateOnUpdate, through either version (201); a dry run writes nothing', async () => {
    const dry = await call('PUT', `${CORE}/put-dry?dryRun=All`, coreEvent('put-dry'));
    expect(dry.status).toBe(201);
    expect((await call('GET', `${CORE}/put-dry`)).status).toBe(404);
    const core = await call('PUT', `${CORE}/put-core`, { ...coreEvent('put-core'), metadata: { name: 'put-core', resourceVersion: '12345' } });
    expect(core.status).toBe(201);
    expect(core.json.metadata.resourceVersion).not.toBe('12345');
    expect(core.json.metadata.managedFields).toEqual([expect.objectContaining({ operation: 'Update', apiVersion: 'v1' })]);
    const v1 = await call('PUT', `${V1}/put-v1`, v1Event('put-v1'));
    expect(v1.status).toBe(201);
    expect((await call('GET', `${CORE}/put-v1`)).json.message).toBe('settings synced');
    const again = await call('PUT', `${V1}/put-v1`, { ...v1.json, metadata: { ...v1.json.metadata, labels: { again: 'yes' } } });
    expect(again.status).toBe(200);
    // a patch of a missing event is still a 404
    expect((await call('PATCH', `${CORE}/missing`, { message: 'x' }, { 'content-type': 'application/merge-patch+json' })).status).toBe(404);
  });

  it('prints upstream’s columns for kubectl get events, in both versions', async () => {
    await call('POST', CORE, coreEvent('printed'));
    const accept = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
    for (const path of [CORE, V1]) {
      const table = (await call('GET', path, undefined, accept)).json;
      expect(table.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`)).toEqual([
        'Last Seen:0', 'Type:0', 'Reason:0', 'Object:0', 'Subobject:1', 'Source:1', 'Message:0', 'First Seen:1', 'Count:1', 'Name:1',
      ]);
      const [cells] = table.rows.map((r: any) => r.cells);
      expect(cells.slice(1)).toEqual(['Normal', 'Pulled', 'pod/web-1', 'spec.containers{web}', 'kubelet, node-1', 'Image pulled', expect.any(String), 3, 'printed']);
    }
  });
});

describe('Event validation', () => {
  afterEach(() => call('DELETE', CORE));

  const causes = (got: any) => got.json.details.causes.map((c: any) => `${c.field}: ${c.message}`);

  it('refuses a core/v1 event whose namespace is not its object’s', async () => {
    const got = await call('POST', CORE, coreEvent('elsewhere', { involvedObject: { kind: 'Pod', namespace: 'other', name: 'x' } }));
    expect(got.status).toBe(422);
    expect(causes(got)).toEqual(['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
  });

  it('asks a core/v1 event with an eventTime for the reporting fields, under core/v1 names', async () => {
    const got = await call('POST', CORE, coreEvent('new-style', { eventTime: '2026-01-01T00:00:00.000000Z', reason: '' }));
    expect(got.status).toBe(422);
    expect(causes(got)).toEqual(
      expect.arrayContaining(['reportingComponent: Required value', 'reportingInstance: Required value', 'action: Required value', 'reason: Required value']),
    );
  });

  it('applies events.k8s.io/v1’s strict rules to its writes', async () => {
    const missing = await call('POST', V1, { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'Bad_Name' }, regarding: { namespace: 'default' }, deprecatedCount: 2, type: 'Odd' });
    expect(missing.status).toBe(422);
    expect(causes(missing)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^metadata\.name: Invalid value: "Bad_Name"/),
        'eventTime: Required value',
        'type: Invalid value: "": has invalid value: Odd',
        'count: Invalid value: "": needs to be unset',
      ]),
    );
    const series = await call('POST', V1, v1Event('series', { series: { count: 1 } }));
    expect(causes(series)).toEqual(['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value']);
    const long = await call('POST', V1, v1Event('long', { note: 'x'.repeat(1025), reportingController: 'not a name' }));
    expect(causes(long)).toEqual(expect.arrayContaining(['message: Invalid value: "": can have at most 1024 characters', expect.stringMatching(/^reportingController: Invalid value: "not a name"/)]));
  });

  it('keeps what an event says immutable through events.k8s.io/v1, not through core/v1', async () => {
    await call('POST', V1, v1Event('fixed'));
    const v1 = await call('PATCH', `${V1}/fixed`, { note: 'other', reportingController: 'example.com/other' }, { 'content-type': 'application/merge-patch+json' });
    expect(v1.status).toBe(422);
    expect(causes(v1)).toEqual([expect.stringMatching(/^message: Invalid value: "other": field is immutable/), expect.stringMatching(/^reportingController: .*field is immutable/)]);
    const series = await call('PATCH', `${V1}/fixed`, { series: { count: 5, lastObservedTime: '2026-01-01T00:09:00.000000Z' } }, { 'content-type': 'application/merge-patch+json' });
    expect(series.status).toBe(200);
    const core = await call('PATCH', `${CORE}/fixed`, { message: 'other' }, { 'content-type': 'application/merge-patch+json' });
    expect(core.status).toBe(200);
  });
});
