import { http } from './support/http';
import { collectionPath, itemPath, KINDS } from './support/kinds';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
});
afterAll(() => server.close());

const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  http(server.url, method, path, { body, headers });

describe.each(KINDS)('$kind', (k) => {
  const name = k.manifest.metadata.name as string;
  const apiVersion = `${k.group}/v1beta1`;

  it('creates, reads, lists, replaces and deletes', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    expect(created.status).toBe(201);
    expect(created.json.kind).toBe(k.kind);
    expect(created.json.apiVersion).toBe(apiVersion);
    const meta = created.json.metadata;
    expect(meta.name).toBe(name);
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    expect(meta.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(meta.selfLink).toBe(itemPath(k, name));
    if (k.namespaced) expect(meta.namespace).toBe('default');
    else expect(meta.namespace).toBeUndefined();

    const got = await call('GET', itemPath(k, name));
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/json'); // the media type without parameters
    expect(got.json).toEqual(created.json);

    const list = await call('GET', collectionPath(k));
    expect(list.status).toBe(200);
    expect(list.json.kind).toBe(`${k.kind}List`);
    expect(list.json.metadata.selfLink).toBe(collectionPath(k));
    expect(BigInt(list.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(BigInt(meta.resourceVersion));
    expect(list.json.items).toHaveLength(1);
    expect(list.json.items[0].kind).toBeUndefined();
    expect(list.json.items[0].metadata.uid).toBe(meta.uid);

    if (k.namespaced) {
      const all = await call('GET', `/apis/${k.group}/v1beta1/${k.resource}`);
      expect(all.json.items.map((i: any) => i.metadata.name)).toEqual([name]);
      const other = await call('GET', collectionPath(k, 'other'));
      expect(other.json.items).toEqual([]);
    }

    const changed = structuredClone(got.json);
    changed.metadata.labels = { ...changed.metadata.labels, changed: 'yes' };
    const replaced = await call('PUT', itemPath(k, name), changed);
    expect(replaced.status).toBe(200);
    expect(replaced.json.metadata.labels.changed).toBe('yes');
    expect(BigInt(replaced.json.metadata.resourceVersion)).toBeGreaterThan(BigInt(meta.resourceVersion));
    expect(replaced.json.metadata.uid).toBe(meta.uid);
    expect(replaced.json.metadata.creationTimestamp).toBe(meta.creationTimestamp);

    const removed = await call('DELETE', itemPath(k, name), { propagationPolicy: 'Background' });
    expect(removed.status).toBe(200);
    if (k.kind === 'Cluster') {
      expect(removed.json.kind).toBe('Cluster');
      expect(removed.json.metadata.name).toBe(name);
    } else {
      expect(removed.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name, group: k.group, kind: k.resource, uid: meta.uid },
      });
    }
    const gone = await call('GET', itemPath(k, name));
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: `${k.resource}.${k.group} "${name}" not found`,
      details: { name, group: k.group, kind: k.resource },
    });
  });

  it('refuses a second create with 409 AlreadyExists and keeps the first', async () => {
    const first = await call('POST', collectionPath(k), k.manifest);
    expect(first.status).toBe(201);
    const second = await call('POST', collectionPath(k), k.manifest);
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ reason: 'AlreadyExists', code: 409, details: { name, kind: k.resource } });
    const got = await call('GET', itemPath(k, name));
    expect(got.json.metadata.uid).toBe(first.json.metadata.uid);
    expect(got.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    await call('DELETE', itemPath(k, name), { propagationPolicy: 'Background' });
  });

  it('refuses a stale resourceVersion with 409 Conflict and changes nothing', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    const first = structuredClone(created.json);
    first.metadata.labels = { round: 'one' };
    const updated = await call('PUT', itemPath(k, name), first);
    expect(updated.status).toBe(200);

    const stale = structuredClone(created.json);
    stale.metadata.labels = { round: 'two' };
    const conflict = await call('PUT', itemPath(k, name), stale);
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      code: 409,
      message: `Operation cannot be fulfilled on ${k.resource}.${k.group} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    });
    const got = await call('GET', itemPath(k, name));
    expect(got.json.metadata.labels).toEqual({ round: 'one' });
    expect(got.json.metadata.resourceVersion).toBe(updated.json.metadata.resourceVersion);
    await call('DELETE', itemPath(k, name), { propagationPolicy: 'Background' });
  });

  it('refuses an invalid name with 422 and a cause, storing nothing', async () => {
    const bad = structuredClone(k.manifest);
    bad.metadata.name = 'Not_A_Valid_Name';
    const response = await call('POST', collectionPath(k), bad);
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { kind: k.kind, group: k.group } });
    expect(response.json.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
    const list = await call('GET', collectionPath(k));
    expect(list.json.items).toEqual([]);
  });

  it('answers an identical replace without a new resourceVersion', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    const same = await call('PUT', itemPath(k, name), created.json);
    expect(same.status).toBe(200);
    expect(same.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    const rows = await server.sql('SELECT count(*)::int AS n FROM change_log WHERE name = $1 AND resource = $2', [name, k.resource]);
    expect(rows[0].n).toBeGreaterThan(0);
    await call('DELETE', itemPath(k, name), { propagationPolicy: 'Background' });
  });
});
