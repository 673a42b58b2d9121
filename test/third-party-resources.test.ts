import { startTestServer } from './support/test-server';
import { call, untilStatus, useTwoInstances } from './support/two-instances';
import { WatchClient } from './support/watch-client';

/**
 * A ThirdPartyResource is a new API, on every instance: created through one instance, it is served
 * by the other as soon as the change feed brings it; deleted, its API goes and its objects with it.
 */
const on = useTwoInstances(['ns']);

const TPRS = '/apis/extensions/v1beta1/thirdpartyresources';
const GROUP = '/apis/stable.example.com';
const CRONTABS = `${GROUP}/v1/namespaces/default/crontabs`;
const cronTab = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, labels: { app: name } },
  cronSpec: '* * * * /5',
  image: 'my-awesome-cron-image',
  nested: { list: [1, 2.5, 'x', null], empty: {} },
  ...extra,
});

describe('a ThirdPartyResource created on one instance', () => {
  it('is served on the other within a second: discovery and the resource', async () => {
    expect((await call(on.b, 'GET', CRONTABS)).status).toBe(404);
    const created = await call(on.a, 'POST', TPRS, {
      metadata: { name: 'cron-tab.stable.example.com' },
      versions: [{ name: 'v1' }, { name: 'v2' }],
      description: 'A crontab',
    });
    expect(created.status).toBe(201);
    expect(await untilStatus(on.b, CRONTABS, 200)).toBeLessThan(1000);

    const groups = (await call(on.b, 'GET', '/apis')).json.groups;
    expect(groups.find((g: any) => g.name === 'stable.example.com')).toMatchObject({
      versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    });
    expect((await call(on.b, 'GET', GROUP)).json).toMatchObject({ kind: 'APIGroup', apiVersion: 'v1', name: 'stable.example.com' });
    const resources = (await call(on.b, 'GET', `${GROUP}/v1`)).json;
    expect(resources).toMatchObject({ kind: 'APIResourceList', groupVersion: 'stable.example.com/v1' });
    expect(resources.resources).toEqual([
      {
        name: 'crontabs',
        singularName: '',
        namespaced: true,
        kind: 'CronTab',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      },
    ]);
    expect((await call(on.b, 'GET', `${GROUP}/v2/namespaces/default/crontabs`)).status).toBe(404); // only the first version
  });

  it('keeps objects as sent, with the server\'s metadata, readable on both instances', async () => {
    const created = await call(on.a, 'POST', CRONTABS, cronTab('my-new-cron-object'));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ ...cronTab('my-new-cron-object'), metadata: { name: 'my-new-cron-object', namespace: 'default' } });
    expect(created.json.metadata).toMatchObject({
      selfLink: `${CRONTABS}/my-new-cron-object`,
      uid: expect.any(String),
      resourceVersion: expect.any(String),
      creationTimestamp: expect.any(String),
    });
    const read = await call(on.b, 'GET', `${CRONTABS}/my-new-cron-object`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const typeless = await call(on.b, 'POST', CRONTABS, { metadata: { name: 'typeless' }, spec: { a: 1 } });
    expect(typeless.status).toBe(201);
    expect(typeless.json).toMatchObject({ kind: 'CronTab', apiVersion: 'stable.example.com/v1', spec: { a: 1 } });
    expect((await call(on.b, 'POST', CRONTABS, { ...cronTab('wrong'), kind: 'Other' })).status).toBe(400);
    expect((await call(on.b, 'POST', CRONTABS, { ...cronTab('wrong'), apiVersion: 'stable.example.com/v2' })).status).toBe(400);
    expect((await call(on.b, 'POST', CRONTABS, { cronSpec: 'x' })).status).toBe(422);
  });

  it('lists with its members in 1.7\'s order, items with their kind, filtered by labels', async () => {
    const list = await call(on.b, 'GET', `${CRONTABS}?labelSelector=app%3Dmy-new-cron-object`);
    expect(list.status).toBe(200);
    expect(Object.keys(list.json)).toEqual(['kind', 'items', 'metadata', 'apiVersion']);
    expect(list.json.kind).toBe('CronTabList');
    expect(list.json.apiVersion).toBe('stable.example.com/v1');
    expect(list.json.items).toHaveLength(1);
    expect(list.json.items[0]).toMatchObject({ kind: 'CronTab', apiVersion: 'stable.example.com/v1', image: 'my-awesome-cron-image' });
    const all = await call(on.a, 'GET', '/apis/stable.example.com/v1/crontabs');
    expect(all.json.items.map((i: any) => i.metadata.name).sort()).toEqual(['my-new-cron-object', 'typeless']);
  });

  it('speaks JSON only: 406 for YAML or protobuf, 415 for a YAML body', async () => {
    expect((await call(on.a, 'GET', CRONTABS, undefined, { accept: 'application/yaml' })).status).toBe(406);
    expect((await call(on.a, 'GET', CRONTABS, undefined, { accept: 'application/vnd.kubernetes.protobuf' })).status).toBe(406);
    const json = await call(on.a, 'GET', CRONTABS, undefined, { accept: 'application/vnd.kubernetes.protobuf, application/json' });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    const yaml = await call(on.a, 'POST', CRONTABS, 'metadata:\n  name: y\n', { 'content-type': 'application/yaml' });
    expect(yaml.status).toBe(415);
  });

  it('takes JSON and merge patches of the sent fields, and refuses a strategic merge patch with 415', async () => {
    const path = `${CRONTABS}/my-new-cron-object`;
    const merged = await call(on.a, 'PATCH', path, JSON.stringify({ cronSpec: '0 * * * *', nested: { empty: null } }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(merged.status).toBe(200);
    expect(merged.json).toMatchObject({ cronSpec: '0 * * * *', nested: { list: [1, 2.5, 'x', null] } });
    expect(merged.json.nested).not.toHaveProperty('empty');
    const jsonPatch = await call(on.b, 'PATCH', path, JSON.stringify([{ op: 'add', path: '/extra', value: { deep: [true] } }]), {
      'content-type': 'application/json-patch+json',
    });
    expect(jsonPatch.status).toBe(200);
    expect(jsonPatch.json.extra).toEqual({ deep: [true] });
    const strategic = await call(on.a, 'PATCH', path, JSON.stringify({ image: 'x' }), { 'content-type': 'application/strategic-merge-patch+json' });
    expect(strategic.status).toBe(415);
    const replaced = await call(on.b, 'PUT', path, { ...jsonPatch.json, image: 'new-image' });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ image: 'new-image', extra: { deep: [true] } });
  });

  it('answers a watch from a version older than the history with 410 Expired', async () => {
    const [{ rv }] = await on.a.sql<{ rv: string }>('SELECT max(resource_version)::text AS rv FROM change_log');
    await on.a.sql('DELETE FROM change_log WHERE resource_version < $1', [rv]);
    await on.a.sql('UPDATE change_log_compaction SET compacted_through = $1', [rv]);
    const watch = await WatchClient.open(on.a.url, `${CRONTABS}?watch=true&resourceVersion=1`);
    const [event] = await watch.count(1);
    watch.close();
    expect(event).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
  });
});

describe('deleting the ThirdPartyResource', () => {
  it('deletes its objects, which every watcher sees, and removes its API from every instance', async () => {
    const watchA = await WatchClient.open(on.a.url, `${CRONTABS}?watch=true`);
    const watchB = await WatchClient.open(on.b.url, '/apis/stable.example.com/v1/watch/crontabs');
    await watchA.count(2);
    await watchB.count(2);
    const deleted = await call(on.b, 'DELETE', `${TPRS}/cron-tab.stable.example.com`);
    expect(deleted.status).toBe(200);
    for (const watch of [watchA, watchB]) {
      const events = await watch.count(4);
      expect(events.slice(2).map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['DELETED my-new-cron-object', 'DELETED typeless']);
      watch.close();
    }
    await untilStatus(on.a, CRONTABS, 404);
    await untilStatus(on.b, CRONTABS, 404);
    expect((await call(on.a, 'GET', GROUP)).status).toBe(404);
    expect((await call(on.b, 'GET', '/apis')).json.groups.map((g: any) => g.name)).not.toContain('stable.example.com');
    expect(await on.a.sql("SELECT name FROM objects WHERE api_group = 'stable.example.com'")).toEqual([]);
  });

  it('by SQL does the same', async () => {
    await call(on.a, 'POST', TPRS, { metadata: { name: 'a-thing.example.com' }, versions: [{ name: 'v1alpha1' }] });
    const things = '/apis/example.com/v1alpha1/namespaces/ns/athings';
    await untilStatus(on.b, things, 200);
    expect((await call(on.b, 'POST', things, { metadata: { name: 'one' }, colour: 'blue' })).status).toBe(201);
    await on.a.sql("DELETE FROM objects WHERE api_group = 'extensions' AND resource = 'thirdpartyresources'");
    await untilStatus(on.a, things, 404);
    await untilStatus(on.b, things, 404);
    for (let i = 0; i < 100; i++) {
      if ((await on.a.sql("SELECT name FROM objects WHERE api_group = 'example.com'")).length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the objects of a deleted ThirdPartyResource are still stored');
  });
});

describe('an instance started after the definitions were stored', () => {
  it('serves them at once', async () => {
    await call(on.a, 'POST', TPRS, { metadata: { name: 'late-comer.example.org' }, versions: [{ name: 'v1' }] });
    await untilStatus(on.a, '/apis/example.org/v1/namespaces/default/latecomers', 200);
    const c = await startTestServer(on.a.databaseUrl);
    try {
      expect((await call(c, 'GET', '/apis/example.org/v1/namespaces/default/latecomers')).status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
