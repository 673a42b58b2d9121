import { Reader } from 'protobufjs';
import { useTestServer } from './support/api';
import { PROTOBUF, unwrap } from './support/protobuf';

const { call, server } = useTestServer();
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

const lease = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec });
const causes = (got: any) => got.json.details.causes.map((c: any) => `${c.field}: ${c.message}`);
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

describe('coordination.k8s.io/v1 Leases', () => {
  afterEach(() => call('DELETE', LEASES));

  it('is in discovery, namespaced, with every verb', async () => {
    const list = await call('GET', '/apis/coordination.k8s.io/v1');
    expect(list.json.resources).toEqual([
      expect.objectContaining({ name: 'leases', kind: 'Lease', namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] }),
    ]);
    expect((await call('GET', '/apis')).json.groups.map((g: any) => g.name)).toEqual(expect.arrayContaining(['coordination.k8s.io', 'events.k8s.io']));
  });

  it('creates, reads, renews, lists and deletes, keeping MicroTime to the microsecond', async () => {
    const spec = { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2026-01-01T00:00:00.000001Z', renewTime: '2026-01-01T00:00:00.000001Z', leaseTransitions: 0 };
    const created = await call('POST', LEASES, lease('lock', spec));
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual(spec);
    expect(created.json.metadata.generation).toBeUndefined();
    const renewed = await call('PUT', `${LEASES}/lock`, { ...created.json, spec: { ...spec, holderIdentity: 'b', renewTime: '2026-01-01T00:00:10.500000Z', leaseTransitions: 1 } });
    expect(renewed.status).toBe(200);
    expect(renewed.json.spec).toMatchObject({ holderIdentity: 'b', renewTime: '2026-01-01T00:00:10.500000Z', leaseTransitions: 1 });
    const stale = await call('PUT', `${LEASES}/lock`, { ...created.json, spec: { ...spec, holderIdentity: 'c' } });
    expect(stale.status).toBe(409);
    expect((await call('GET', LEASES)).json.items.map((l: any) => l.spec.holderIdentity)).toEqual(['b']);
    const rows = await server().sql(`SELECT holder, duration_seconds, transitions, expired FROM kube.leases WHERE name = 'lock'`);
    expect(rows).toEqual([{ holder: 'b', duration_seconds: 15, transitions: 1, expired: true }]);
    expect((await call('DELETE', `${LEASES}/lock`)).status).toBe(200);
    expect((await call('GET', `${LEASES}/lock`)).status).toBe(404);
  });

  it('creates a lease with a PUT (201), as upstream; other kinds still answer 404', async () => {
    const put = await call('PUT', `${LEASES}/put`, lease('put', { holderIdentity: 'a' }));
    expect(put.status).toBe(201);
    expect((await call('PUT', `${LEASES}/put`, { ...put.json, spec: { holderIdentity: 'b' } })).status).toBe(200);
    expect((await call('PUT', `${LEASES}/bad`, lease('bad', { leaseDurationSeconds: -1 }))).status).toBe(422);
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'none' }, spec: {} };
    expect((await call('PUT', '/api/v1/namespaces/default/replicationcontrollers/none', rc)).status).toBe(404);
  });

  it('validates as upstream', async () => {
    const bad = await call('POST', LEASES, lease('bad', { leaseDurationSeconds: 0, leaseTransitions: -1, preferredHolder: 'x' }));
    expect(bad.status).toBe(422);
    expect(causes(bad)).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
      'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
    ]);
    const strategy = await call('POST', LEASES, lease('bad', { strategy: 'Newest' }));
    expect(causes(strategy)).toEqual(['spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"']);
    expect((await call('POST', LEASES, lease('ok', { strategy: 'OldestEmulationVersion', preferredHolder: 'x' }))).status).toBe(201);
    expect((await call('POST', LEASES, lease('custom', { strategy: 'example.com/mine' }))).status).toBe(201);
    expect((await call('POST', LEASES, lease('Not_A_Name', {}))).status).toBe(422);
  });

  it('applies server-side: fields owned by their managers, conflicts refused unless forced', async () => {
    const first = await call('PATCH', `${LEASES}/ssa?fieldManager=a`, JSON.stringify(lease('ssa', { holderIdentity: 'a', leaseDurationSeconds: 10 })), APPLY);
    expect(first.status).toBe(201);
    expect(first.json.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'a', operation: 'Apply', apiVersion: 'coordination.k8s.io/v1', fieldsV1: { 'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} } } }),
    ]);
    const conflict = await call('PATCH', `${LEASES}/ssa?fieldManager=b`, JSON.stringify(lease('ssa', { holderIdentity: 'b' })), APPLY);
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toContain('.spec.holderIdentity');
    const forced = await call('PATCH', `${LEASES}/ssa?fieldManager=b&force=true`, JSON.stringify(lease('ssa', { holderIdentity: 'b' })), APPLY);
    expect(forced.status).toBe(200);
    expect(forced.json.spec).toEqual({ holderIdentity: 'b', leaseDurationSeconds: 10 });
    expect(forced.json.metadata.managedFields.map((m: any) => m.manager).sort()).toEqual(['a', 'b']);
  });

  it('speaks protobuf with upstream’s field numbers', async () => {
    await call('POST', LEASES, lease('wire', { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.000001Z' }));
    const got = await call('GET', `${LEASES}/wire`, undefined, { accept: PROTOBUF });
    expect(got.headers.get('content-type')).toBe(PROTOBUF);
    /** The fields of a message by number: bytes as buffers, varints as numbers. */
    const fields = (raw: Uint8Array) => {
      const reader = Reader.create(raw);
      const out: Record<number, Uint8Array | number> = {};
      while (reader.pos < reader.len) {
        const tag = reader.uint32();
        if ((tag & 7) === 2) out[tag >>> 3] = reader.bytes();
        else if ((tag & 7) === 0) out[tag >>> 3] = reader.int32();
        else reader.skipType(tag & 7);
      }
      return out;
    };
    const spec = fields(fields(unwrap(got.bytes).raw)[2] as Uint8Array);
    expect(Buffer.from(spec[1] as Uint8Array).toString()).toBe('me');
    expect(spec[2]).toBe(15);
    expect(fields(spec[4] as Uint8Array)).toEqual({ 1: Date.parse('2026-01-01T00:00:00Z') / 1000, 2: 1000 }); // MicroTime: seconds, nanos
    const before = (await call('GET', `${LEASES}/wire`)).json;
    const put = await call('PUT', `${LEASES}/wire`, got.bytes, { 'content-type': PROTOBUF, accept: 'application/json' });
    expect(put.json).toEqual(before);
  });

  it('prints NAME HOLDER AGE', async () => {
    await call('POST', LEASES, lease('printed', { holderIdentity: 'me' }));
    const table = (await call('GET', LEASES, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json;
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Holder', 'Age']);
    expect(table.rows[0].cells.slice(0, 2)).toEqual(['printed', 'me']);
  });

  it('is in the OpenAPI document with its MicroTime fields', async () => {
    const doc = (await call('GET', '/openapi/v2')).json;
    const spec = doc.definitions['io.k8s.api.coordination.v1.LeaseSpec'];
    expect(Object.keys(spec.properties)).toEqual(
      expect.arrayContaining(['holderIdentity', 'leaseDurationSeconds', 'acquireTime', 'renewTime', 'leaseTransitions', 'strategy', 'preferredHolder']),
    );
    expect(spec.properties.renewTime.$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime');
    expect(doc.definitions['io.k8s.api.events.v1.Event'].properties.regarding.$ref).toBe('#/definitions/io.k8s.api.core.v1.ObjectReference');
  });
});
