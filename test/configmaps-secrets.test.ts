import { useTestServer } from './support/api';

// core v1 ConfigMaps and Secrets as the current apiserver serves them: shapes, stringData, typed secrets, immutability.

const { call } = useTestServer();

const CMS = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const b64 = (text: string) => Buffer.from(text).toString('base64');

const configMap = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra });
const secret = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, ...extra });

const causes = (response: { json: any }) => response.json.details.causes.map((c: any) => `${c.field}: ${c.message}`);

describe('discovery', () => {
  it('serves configmaps (cm) and secrets in core v1 with every verb', async () => {
    const { resources } = (await call('GET', '/api/v1')).json;
    const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
    expect(resources.find((r: any) => r.name === 'configmaps')).toEqual({ name: 'configmaps', singularName: '', namespaced: true, kind: 'ConfigMap', verbs, shortNames: ['cm'] });
    expect(resources.find((r: any) => r.name === 'secrets')).toEqual({ name: 'secrets', singularName: '', namespaced: true, kind: 'Secret', verbs });
  });

  it('is granted by the default roles as upstream grants it: view reads configmaps but not secrets, edit writes both', async () => {
    const rules = async (role: string) => (await call('GET', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${role}`)).json.rules as any[];
    const grants = (all: any[], resource: string, verb: string) => all.some((r) => r.apiGroups?.includes('') && r.resources?.includes(resource) && r.verbs.includes(verb));
    const view = await rules('view');
    expect(grants(view, 'configmaps', 'list')).toBe(true);
    expect(grants(view, 'secrets', 'get')).toBe(false);
    const edit = await rules('edit');
    for (const verb of ['get', 'create', 'update', 'delete']) {
      expect(grants(edit, 'secrets', verb)).toBe(true);
      expect(grants(edit, 'configmaps', verb)).toBe(true);
    }
  });

  it('publishes both shapes in OpenAPI, bytes as base64', async () => {
    const { definitions } = (await call('GET', '/openapi/v2')).json;
    expect(Object.keys(definitions['io.k8s.api.core.v1.ConfigMap'].properties)).toEqual(expect.arrayContaining(['binaryData', 'data', 'immutable', 'metadata']));
    const secretProperties = definitions['io.k8s.api.core.v1.Secret'].properties;
    expect(secretProperties.data.additionalProperties).toMatchObject({ type: 'string', format: 'byte' });
    expect(secretProperties.stringData.additionalProperties).toMatchObject({ type: 'string' });
    expect(secretProperties.type.description).toContain('Opaque');
  });
});

describe('ConfigMap', () => {
  it('creates, reads, lists as a Table (NAME DATA AGE) and deletes', async () => {
    const created = await call('POST', CMS, configMap('settings', { data: { 'app.mode': 'fast', LEVEL: '3' }, binaryData: { blob: b64('\u0000\u0001') } }));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { 'app.mode': 'fast', LEVEL: '3' }, binaryData: { blob: 'AAE=' } });
    expect((await call('GET', `${CMS}/settings`)).json).toEqual(created.json);
    const table = await call('GET', CMS, undefined, { accept: TABLE });
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(table.json.rows.find((r: any) => r.cells[0] === 'settings').cells.slice(0, 2)).toEqual(['settings', 3]);
    expect((await call('DELETE', `${CMS}/settings`)).status).toBe(200);
  });

  it('refuses bad keys, a key in both data and binaryData, and more than 1 MiB of values', async () => {
    const bad = await call('POST', CMS, configMap('bad-keys', { data: { 'a b': 'x', '..hidden': 'y', same: 'z' }, binaryData: { same: 'eg==' } }));
    expect(bad.status).toBe(422);
    expect(causes(bad)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^data\[a b\]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.'/),
        `data[..hidden]: Invalid value: "..hidden": must not start with '..'`,
        'data[same]: Invalid value: "same": duplicate of key present in binaryData',
        'binaryData[same]: Invalid value: "same": duplicate of key present in data',
      ]),
    );
    const large = await call('POST', CMS, configMap('large', { data: { a: 'x'.repeat(600 * 1024), b: 'y'.repeat(500 * 1024) } }));
    expect(large.status).toBe(422);
    expect(large.json.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueTooLong', field: '' })]);
    expect((await call('GET', `${CMS}/large`)).status).toBe(404);
  });

  it('once immutable, keeps data, binaryData and immutable but lets metadata change', async () => {
    const created = (await call('POST', CMS, configMap('frozen', { immutable: true, data: { a: '1' } }))).json;
    const changed = await call('PUT', `${CMS}/frozen`, { ...created, data: { a: '2' }, binaryData: { b: 'eg==' } });
    expect(changed.status).toBe(422);
    expect(causes(changed)).toEqual([
      'data: Forbidden: field is immutable when `immutable` is set',
      'binaryData: Forbidden: field is immutable when `immutable` is set',
    ]);
    const unfrozen = await call('PATCH', `${CMS}/frozen`, { immutable: false }, { 'content-type': 'application/merge-patch+json' });
    expect(causes(unfrozen)).toEqual(['immutable: Forbidden: field is immutable when `immutable` is set']);
    const labelled = await call('PATCH', `${CMS}/frozen`, { metadata: { labels: { team: 'a' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(labelled.status).toBe(200);
    expect(labelled.json).toMatchObject({ immutable: true, data: { a: '1' }, metadata: { labels: { team: 'a' } } });
  });

  it('is applied server-side, its data keys owned by the manager', async () => {
    const applied = await call('PATCH', `${CMS}/applied?fieldManager=tool`, configMap('applied', { data: { k: 'v' } }), { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(201);
    expect(applied.json.metadata.managedFields[0]).toMatchObject({ manager: 'tool', operation: 'Apply', fieldsV1: { 'f:data': { 'f:k': {} } } });
  });
});

describe('Secret', () => {
  it('merges stringData into data, drops it, defaults the type to Opaque, and lists as NAME TYPE DATA AGE', async () => {
    const created = await call('POST', SECRETS, secret('creds', { data: { user: b64('old'), keep: b64('k') }, stringData: { user: 'admin', password: 'pässword' } }));
    expect(created.status).toBe(201);
    expect(created.json.stringData).toBeUndefined();
    expect(created.json).toMatchObject({ type: 'Opaque', data: { user: b64('admin'), keep: b64('k'), password: b64('pässword') } });
    const read = (await call('GET', `${SECRETS}/creds`)).json;
    expect(read).toEqual(created.json);
    const patched = await call('PATCH', `${SECRETS}/creds`, { stringData: { keep: 'new' } }, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(patched.json.data.keep).toBe(b64('new'));
    expect(patched.json.stringData).toBeUndefined();
    const table = await call('GET', SECRETS, undefined, { accept: TABLE });
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Type', 'Data', 'Age']);
    expect(table.json.rows.find((r: any) => r.cells[0] === 'creds').cells.slice(0, 3)).toEqual(['creds', 'Opaque', 3]);
  });

  it('answers 400 for data that is not base64', async () => {
    const bad = await call('POST', SECRETS, secret('not-base64', { data: { a: 'not base64!' } }));
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('illegal base64 data at input byte 3');
  });

  it('checks the keys each typed secret requires', async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['kubernetes.io/tls', { data: { 'tls.crt': b64('c') } }, ['data[tls.key]: Required value']],
      ['kubernetes.io/dockerconfigjson', { data: { '.dockerconfigjson': b64('{not json') } }, ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": ']],
      ['kubernetes.io/dockerconfigjson', {}, ['data[.dockerconfigjson]: Required value']],
      ['kubernetes.io/basic-auth', { data: { other: b64('x') } }, ['data[%s][username]: Required value', 'data[%s][password]: Required value']],
      ['kubernetes.io/ssh-auth', { data: { 'ssh-privatekey': '' } }, ['data[%s][ssh-privatekey]: Required value']],
      ['kubernetes.io/service-account-token', {}, ['metadata.annotations[kubernetes.io/service-account.name]: Required value']],
    ];
    for (const [type, body, expected] of cases) {
      const refused = await call('POST', SECRETS, secret('typed', { type, ...body }));
      expect(refused.status).toBe(422);
      expect(causes(refused).map((cause: string, i: number) => cause.slice(0, expected[i]?.length))).toEqual(expected);
    }
    // the message names at most the character at fault, never the value around it (it reaches the audit log)
    const leaky = await call('POST', SECRETS, secret('leaky', { type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': 'hunter2-super-secret' } }));
    expect(causes(leaky)).toEqual([`data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'h' looking for beginning of value`]);
    const tls = await call('POST', SECRETS, secret('tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } }));
    expect(tls.status).toBe(201);
    const basic = await call('POST', SECRETS, secret('basic', { type: 'kubernetes.io/basic-auth', stringData: { password: 'p' } }));
    expect(basic.status).toBe(201);
    const docker = await call('POST', SECRETS, secret('docker', { type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': '{"auths":{}}' } }));
    expect(docker.status).toBe(201);
  });

  it('keeps its type on update, and once immutable its data', async () => {
    const created = (await call('POST', SECRETS, secret('fixed', { immutable: true, stringData: { a: '1' } }))).json;
    const retyped = await call('PUT', `${SECRETS}/fixed`, { ...created, type: 'kubernetes.io/basic-auth' });
    // the new type's own rules are checked too, as upstream validates the updated object as a whole
    expect(causes(retyped)).toEqual(['type: Invalid value: "kubernetes.io/basic-auth": field is immutable', 'data[%s][username]: Required value', 'data[%s][password]: Required value']);
    const changed = await call('PATCH', `${SECRETS}/fixed`, { stringData: { a: '2' } }, { 'content-type': 'application/merge-patch+json' });
    expect(changed.status).toBe(422);
    expect(causes(changed)).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
    expect((await call('GET', `${SECRETS}/fixed`)).json.data).toEqual({ a: b64('1') });
  });

  it('selects by type (fieldSelector), in SQL', async () => {
    const selected = await call('GET', `${SECRETS}?fieldSelector=type%3Dkubernetes.io%2Ftls`);
    expect(selected.status).toBe(200);
    expect(selected.json.items.map((s: any) => s.metadata.name)).toEqual(['tls']);
    const others = await call('GET', `${SECRETS}?fieldSelector=type!%3DOpaque,metadata.name!%3Dtls`);
    expect(others.json.items.map((s: any) => s.metadata.name).sort()).toEqual(['basic', 'docker']);
    expect((await call('GET', `${SECRETS}?fieldSelector=data.a%3Dx`)).status).toBe(400);
  });

  it('travels in protobuf', async () => {
    const got = await call('GET', `${SECRETS}/tls`, undefined, { accept: 'application/vnd.kubernetes.protobuf' });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    expect(got.bytes.includes(Buffer.from('kubernetes.io/tls'))).toBe(true);
    const replaced = await call('PUT', `${SECRETS}/tls`, got.bytes, { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } });
  });
});
