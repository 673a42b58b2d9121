import { load } from 'js-yaml';
import { useTestServer } from './support/api';

// Discovery exactly as the 1.7 apiserver serves it (the `all` category is apps' alone, as later apiservers list it).

const { call, server } = useTestServer();
const get = (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers);
const address = () => new URL(server().url).host;

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUB = ['get', 'patch', 'update'];
const resource = (name: string, namespaced: boolean, kind: string, verbs: string[], extra: Record<string, unknown> = {}) => ({
  name,
  singularName: '',
  namespaced,
  kind,
  verbs,
  ...extra,
});

const EXTENSIONS_RESOURCES = {
  kind: 'APIResourceList',
  groupVersion: 'extensions/v1beta1',
  resources: [
    resource('daemonsets', true, 'DaemonSet', ALL, { shortNames: ['ds'] }),
    resource('daemonsets/status', true, 'DaemonSet', SUB),
    resource('deployments', true, 'Deployment', ALL, { shortNames: ['deploy'] }),
    resource('deployments/rollback', true, 'DeploymentRollback', ['create']),
    resource('deployments/scale', true, 'Scale', SUB),
    resource('deployments/status', true, 'Deployment', SUB),
    resource('ingresses', true, 'Ingress', ALL, { shortNames: ['ing'] }),
    resource('ingresses/status', true, 'Ingress', SUB),
    resource('networkpolicies', true, 'NetworkPolicy', ALL, { shortNames: ['netpol'] }),
    resource('podsecuritypolicies', false, 'PodSecurityPolicy', ALL, { shortNames: ['psp'] }),
    resource('replicasets', true, 'ReplicaSet', ALL, { shortNames: ['rs'] }),
    resource('replicasets/scale', true, 'Scale', SUB),
    resource('replicasets/status', true, 'ReplicaSet', SUB),
    resource('replicationcontrollers', true, 'ReplicationControllerDummy', []),
    resource('replicationcontrollers/scale', true, 'Scale', SUB),
    resource('thirdpartyresources', false, 'ThirdPartyResource', ALL),
  ],
};

const FEDERATION_RESOURCES = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: 'federation/v1beta1',
  resources: [resource('clusters', false, 'Cluster', ALL), resource('clusters/status', false, 'Cluster', ['update'])],
};

const groupVersion = (group: string, version = 'v1beta1') => ({ groupVersion: `${group}/${version}`, version });
const groupBody = (group: string, version?: string) => ({
  name: group,
  versions: [groupVersion(group, version)],
  preferredVersion: groupVersion(group, version),
});

describe('/apis/{group}/{version}', () => {
  it('lists every extensions resource and subresource, sorted, without apiVersion', async () => {
    const response = await get('/apis/extensions/v1beta1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json).toStrictEqual(EXTENSIONS_RESOURCES);
    expect(Object.keys(response.json)).not.toContain('apiVersion');
  });

  it('serves the same with a trailing slash, as 1.7 registers it', async () => {
    expect((await get('/apis/extensions/v1beta1/')).json).toStrictEqual(EXTENSIONS_RESOURCES);
    expect((await get('/apis/federation/v1beta1/')).json).toStrictEqual(FEDERATION_RESOURCES);
  });

  it('lists federation with apiVersion v1 and clusters/status update-only', async () => {
    const response = await get('/apis/federation/v1beta1');
    expect(response.status).toBe(200);
    expect(response.json).toStrictEqual(FEDERATION_RESOURCES);
  });

  it('writes verbs sorted and the placeholder with an empty verbs array', async () => {
    const { json } = await get('/apis/extensions/v1beta1');
    for (const r of json.resources) expect(r.verbs).toEqual([...r.verbs].sort());
    const placeholder = json.resources.find((r: { name: string }) => r.name === 'replicationcontrollers');
    expect(placeholder.verbs).toEqual([]);
  });

  it('is negotiated like any other answer (YAML)', async () => {
    const response = await get('/apis/federation/v1beta1', { accept: 'application/yaml' });
    expect(response.headers.get('content-type')).toBe('application/yaml');
    expect(load(response.text)).toStrictEqual(FEDERATION_RESOURCES);
  });
});

describe('/apis/{group}', () => {
  it('describes extensions without apiVersion and with null serverAddressByClientCIDRs', async () => {
    const response = await get('/apis/extensions');
    expect(response.status).toBe(200);
    expect(response.json).toStrictEqual({ kind: 'APIGroup', ...groupBody('extensions'), serverAddressByClientCIDRs: null });
  });

  it('describes federation with apiVersion v1', async () => {
    const response = await get('/apis/federation/');
    expect(response.json).toStrictEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      ...groupBody('federation'),
      serverAddressByClientCIDRs: null,
    });
  });
});

describe('/apis', () => {
  it('lists the groups in registration order, with the address the client used', async () => {
    const serverAddressByClientCIDRs = [{ clientCIDR: '0.0.0.0/0', serverAddress: address() }];
    const expected = {
      kind: 'APIGroupList',
      groups: [
        { ...groupBody('extensions'), serverAddressByClientCIDRs },
        {
          name: 'apps',
          versions: [groupVersion('apps', 'v1'), groupVersion('apps', 'v1beta2'), groupVersion('apps', 'v1beta1')],
          preferredVersion: groupVersion('apps', 'v1'),
          serverAddressByClientCIDRs,
        },
        { ...groupBody('federation'), serverAddressByClientCIDRs },
        {
          name: 'rbac.authorization.k8s.io',
          versions: [groupVersion('rbac.authorization.k8s.io', 'v1'), groupVersion('rbac.authorization.k8s.io', 'v1beta1')],
          preferredVersion: groupVersion('rbac.authorization.k8s.io', 'v1'),
          serverAddressByClientCIDRs,
        },
        { ...groupBody('events.k8s.io', 'v1'), serverAddressByClientCIDRs },
        { ...groupBody('networking.k8s.io', 'v1'), serverAddressByClientCIDRs },
        { ...groupBody('policy', 'v1beta1'), serverAddressByClientCIDRs },
        { ...groupBody('coordination.k8s.io', 'v1'), serverAddressByClientCIDRs },
        {
          ...groupBody('apiextensions.k8s.io', 'v1'),
          versions: [groupVersion('apiextensions.k8s.io', 'v1'), groupVersion('apiextensions.k8s.io', 'v1beta1')],
          serverAddressByClientCIDRs,
        },
        { ...groupBody('authentication.k8s.io', 'v1'), serverAddressByClientCIDRs },
        { ...groupBody('authorization.k8s.io', 'v1'), serverAddressByClientCIDRs },
      ],
    };
    const response = await get('/apis');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json).toStrictEqual(expected);
    expect((await get('/apis/')).json).toStrictEqual(expected);
  });
});

describe('/api', () => {
  it('lists the core version, which is served', async () => {
    const response = await get('/api');
    expect(response.status).toBe(200);
    expect(response.json).toStrictEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: address() }],
    });
    const core = await get('/api/v1');
    expect(core.status).toBe(200);
    expect(core.json).toMatchObject({ kind: 'APIResourceList', groupVersion: 'v1' });
  });
});

describe('/version', () => {
  it('is a plain struct with all nine keys, reporting 1.7', async () => {
    const response = await get('/version');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(response.json)).toEqual([
      'major',
      'minor',
      'gitVersion',
      'gitCommit',
      'gitTreeState',
      'buildDate',
      'goVersion',
      'compiler',
      'platform',
    ]);
    expect(response.json).toMatchObject({ major: '1', minor: '7', gitTreeState: 'clean' });
    expect(response.json.gitVersion).toMatch(/^v1\.7\.\d+/);
    for (const value of Object.values(response.json)) expect(typeof value).toBe('string');
  });
});

describe('/healthz', () => {
  it('answers ok', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect(response.text).toBe('ok');
  });
});

describe('OpenAPI v2', () => {
  const ASKED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
  // the form later apiservers answer with: client-go cannot parse the '@' of the one it asks for
  const ANSWERED = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
  // field 1 of an OpenAPI v2 Document (`swagger`), a length-delimited string: "2.0"
  const SWAGGER_FIELD = Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]);

  const bytes = async (path: string, accept?: string) => {
    const response = await fetch(`${server().url}${path}`, { headers: accept ? { accept } : {} });
    return { status: response.status, contentType: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()) };
  };

  it('serves /openapi/v2 in protobuf when kubectl asks for it', async () => {
    const response = await bytes('/openapi/v2', ASKED);
    expect(response.status).toBe(200);
    expect(response.contentType).toBe(ANSWERED);
    expect(response.body.subarray(0, SWAGGER_FIELD.length)).toEqual(SWAGGER_FIELD);
  });

  it('serves /swagger-2.0.0.pb-v1 (kubectl 1.20 falls back to it) in protobuf', async () => {
    const response = await bytes('/swagger-2.0.0.pb-v1');
    expect(response.status).toBe(200);
    expect(response.contentType).toBe(ANSWERED);
    expect(response.body.subarray(0, SWAGGER_FIELD.length)).toEqual(SWAGGER_FIELD);
  });

  it.each(['/openapi/v2', '/swagger.json'])('serves %s as JSON otherwise', async (path) => {
    const response = await get(path, { accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json).toMatchObject({ swagger: '2.0', paths: expect.any(Object) });
  });

  it('declares that PATCH of every kind takes dryRun (kubectl 1.18 to 1.25 look for it before a server-side dry run)', async () => {
    const { paths } = (await get('/openapi/v2', { accept: 'application/json' })).json;
    const patch = paths['/apis/extensions/v1beta1/namespaces/{namespace}/deployments/{name}'].patch;
    expect(patch.parameters).toContainEqual(expect.objectContaining({ name: 'dryRun', in: 'query' }));
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'extensions', version: 'v1beta1', kind: 'Deployment' });
    expect(paths['/apis/federation/v1beta1/clusters/{name}'].patch['x-kubernetes-group-version-kind'].kind).toBe('Cluster');
  });
});
