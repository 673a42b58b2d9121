import { dump, load } from 'js-yaml';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed as kind, KINDS } from './support/kinds';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// Media types, output forms and the metadata the server sets on input.

const DEPLOYMENT = kind('Deployment');
const TABLE_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

// the objects, writes and events of the tests' own requests are compared exactly: no controller writes besides
const { call, server } = useTestServer(['yaml', 'strings', 'writes', 'export', 'generated', 'team-a'], WITHOUT_DEPLOYMENT_CONTROLLER);
let web: any;
beforeAll(async () => {
  web = (await call('POST', collectionPath(DEPLOYMENT), DEPLOYMENT.manifest)).json;
});
const WEB = itemPath(DEPLOYMENT, 'web');

/** The stored row of an object. */
const storedBody = async (resource: string, namespace: string, name: string) =>
  (await server().sql<{ body: any }>('SELECT body FROM objects WHERE resource = $1 AND namespace = $2 AND name = $3', [resource, namespace, name]))[0]
    ?.body;

/** Every mapping of a parsed YAML document has its keys in sorted order (js-yaml keeps the document's order). */
function expectKeysSorted(value: unknown): void {
  if (Array.isArray(value)) value.forEach(expectKeysSorted);
  else if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    expect(keys).toEqual([...keys].sort());
    Object.values(value).forEach(expectKeysSorted);
  }
}

describe('YAML', () => {
  it('reads a YAML body and answers in YAML with sorted keys', async () => {
    const manifest = { ...DEPLOYMENT.manifest, metadata: { ...DEPLOYMENT.manifest.metadata, namespace: 'yaml' } };
    const created = await call('POST', collectionPath(DEPLOYMENT, 'yaml'), dump(manifest), { 'content-type': 'application/yaml', accept: 'application/yaml' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/yaml');
    const object = load(created.text) as any;
    expect(Object.keys(object)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expectKeysSorted(object);
    expect(object.spec).toMatchObject(DEPLOYMENT.manifest.spec);
    expect(object.metadata).toMatchObject({ name: 'web', namespace: 'yaml', selfLink: itemPath(DEPLOYMENT, 'web', 'yaml') });

    object.metadata.labels.format = 'yaml';
    const replaced = await call('PUT', itemPath(DEPLOYMENT, 'web', 'yaml'), dump(object), { 'content-type': 'application/yaml; charset=utf-8', accept: 'application/yaml' });
    expect(replaced.status).toBe(200);
    expect((load(replaced.text) as any).metadata.labels.format).toBe('yaml');
    expect((await storedBody('deployments', 'yaml', 'web')).metadata.labels.format).toBe('yaml');
  });

  it('answers lists and errors in YAML too', async () => {
    const list = await call('GET', collectionPath(DEPLOYMENT), undefined, { accept: 'application/yaml' });
    expect(list.headers.get('content-type')).toBe('application/yaml');
    expect(load(list.text)).toMatchObject({ kind: 'DeploymentList', items: [{ metadata: { name: 'web' } }] });
    const missing = await call('GET', itemPath(DEPLOYMENT, 'missing'), undefined, { accept: 'application/yaml' });
    expect(missing.status).toBe(404);
    expect(load(missing.text)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('writes JSON keys in the apiserver’s order', async () => {
    const { json } = await call('GET', WEB);
    expect(Object.keys(json)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(Object.keys(json.metadata)).toEqual([
      'name',
      'namespace',
      'selfLink',
      'uid',
      'resourceVersion',
      'generation',
      'creationTimestamp',
      'labels',
      'managedFields',
    ]);
  });
});

describe('pretty', () => {
  const compact = (text: string) => `${JSON.stringify(JSON.parse(text))}\n`;
  const indented = (text: string) => JSON.stringify(JSON.parse(text), null, 2);

  it.each([
    ['no pretty and a client agent', '', 'kubectl/v1.32.4 (linux/amd64)', false],
    ['?pretty=true', '?pretty=true', 'kubectl/v1.32.4', true],
    ['?pretty=1', '?pretty=1', 'node', true],
    ['?pretty=True', '?pretty=True', 'node', true],
    ['?pretty=yes, which ParseBool does not read', '?pretty=yes', 'node', false],
    ['?pretty=false', '?pretty=false', 'node', false],
    ['a curl User-Agent', '', 'curl/8.5.0', true],
    ['a Wget User-Agent', '', 'Wget/1.21.4', true],
    ['a browser User-Agent', '', 'Mozilla/5.0 (X11; Linux x86_64)', true],
    ['a curl User-Agent with ?pretty=false', '?pretty=false', 'curl/8.5.0', false],
  ])('%s', async (_title, query, agent, pretty) => {
    const response = await call('GET', `${WEB}${query}`, undefined, { 'user-agent': agent as string });
    expect(response.status).toBe(200);
    expect(response.text).toBe(pretty ? indented(response.text) : compact(response.text));
  });

  it('is compact JSON, as the object was written, whatever its strings hold', async () => {
    // read as PostgreSQL writes the stored jsonb, with a space after each separator outside strings
    const tricky = { a: 'x: y, z', b: 'q"uo\\"te", d', c: 'tab\there\nnl \u0001 \\', d: 'ünï 💥 ", "', e: '\\', f: '' };
    const manifest = { ...DEPLOYMENT.manifest, metadata: { ...DEPLOYMENT.manifest.metadata, name: 'tricky', namespace: 'strings', annotations: tricky } };
    manifest.spec = { ...manifest.spec, template: { ...manifest.spec.template, metadata: { labels: manifest.spec.template.metadata.labels, annotations: tricky } } };
    expect((await call('POST', collectionPath(DEPLOYMENT, 'strings'), manifest)).status).toBe(201);
    const response = await call('GET', itemPath(DEPLOYMENT, 'tricky', 'strings'), undefined, { 'user-agent': 'node' });
    expect(response.text).toBe(compact(response.text));
    expect(response.json.metadata.annotations).toEqual(tricky);
    expect(response.json.spec.template.metadata.annotations).toEqual(tricky);
    expect(Object.keys(response.json.metadata).at(-1)).toBe('managedFields');
    expect(response.json.metadata.managedFields).toMatchObject([{ operation: 'Update', fieldsType: 'FieldsV1' }]);
  });

  it('pretty=1 in the Accept entry', async () => {
    const response = await call('GET', WEB, undefined, { accept: 'application/json;pretty=1' });
    expect(response.text).toBe(indented(response.text));
    expect(response.text.endsWith('\n')).toBe(false);
  });

  it('applies to lists and errors', async () => {
    const list = await call('GET', `${collectionPath(DEPLOYMENT)}?pretty=true`);
    expect(list.text).toBe(indented(list.text));
    const missing = await call('GET', itemPath(DEPLOYMENT, 'missing'), undefined, { 'user-agent': 'curl/8.5.0' });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe(indented(missing.text));
  });
});

describe('answers to writes', () => {
  const META_ORDER = ['name', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'labels', 'annotations', 'managedFields'];
  const manifest = (name: string, revision: string) => ({
    ...DEPLOYMENT.manifest,
    metadata: { ...DEPLOYMENT.manifest.metadata, name, namespace: 'writes', annotations: { revision, 'example.com/odd': 'a "quoted", odd: ünï 💥 \\ \u0001' } },
  });

  it('are the object as a GET reads it, compact, with members in the apiserver’s order, for create, replace and patch', async () => {
    const created = await call('POST', collectionPath(DEPLOYMENT, 'writes'), manifest('written', '1'), { 'user-agent': 'node' });
    const replaced = await call('PUT', itemPath(DEPLOYMENT, 'written', 'writes'), manifest('written', '2'), { 'user-agent': 'node' });
    const patched = await call('PATCH', itemPath(DEPLOYMENT, 'written', 'writes'), { metadata: { labels: { patched: 'yes' } } }, {
      'content-type': 'application/merge-patch+json',
      'user-agent': 'node',
    });
    for (const [response, code] of [[created, 201], [replaced, 200], [patched, 200]] as const) {
      expect(response.status).toBe(code);
      expect(response.text).toBe(`${JSON.stringify(response.json)}\n`);
      expect(Object.keys(response.json)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
      expect(Object.keys(response.json.metadata)).toEqual(META_ORDER);
    }
    expect((await call('GET', itemPath(DEPLOYMENT, 'written', 'writes'))).json).toEqual(patched.json);
    expect(patched.json.metadata).toMatchObject({ selfLink: itemPath(DEPLOYMENT, 'written', 'writes'), labels: { patched: 'yes' } });
  });

  it('are the same object in YAML', async () => {
    const yaml = await call('POST', collectionPath(DEPLOYMENT, 'writes'), manifest('in-yaml', '1'), { accept: 'application/yaml' });
    expect(yaml.status).toBe(201);
    const read = (await call('GET', itemPath(DEPLOYMENT, 'in-yaml', 'writes'))).json;
    expect(load(yaml.text)).toEqual(read);
  });
});

describe('Accept negotiation', () => {
  it.each([
    ['no Accept', undefined, 'application/json'],
    ['*/*', '*/*', 'application/json'],
    ['application/*', 'application/*', 'application/json'],
    ['q-values preferring JSON', 'application/yaml;q=0.5, application/json;q=0.9', 'application/json'],
    ['q-values preferring YAML', 'application/json;q=0.5, application/yaml;q=0.9', 'application/yaml'],
    ['q=0 excluding JSON', 'application/json;q=0, application/yaml', 'application/yaml'],
    ['a concrete type before */*', 'application/yaml, */*', 'application/yaml'],
    ['an unusable type before */* of lower q', 'text/html, */*;q=0.1', 'application/json'],
    ['an unusable type before YAML of lower q', 'text/html, application/yaml;q=0.2', 'application/yaml'],
    ['a stream type on a plain GET', 'application/json;stream=watch', 'application/json'],
    ['a conversion it does not make skipped for the next entry', 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/yaml', 'application/yaml'],
    ['a Table in protobuf (which has no protobuf form) skipped', 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/yaml', 'application/yaml'],
    ['protobuf of lower q than JSON', 'application/vnd.kubernetes.protobuf;q=0.5, application/json', 'application/json'],
  ])('%s', async (_title, accept, type) => {
    const response = await call('GET', WEB, undefined, accept ? { accept } : {});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    const object = type === 'application/json' ? response.json : load(response.text);
    expect(object).toMatchObject({ kind: 'Deployment', metadata: { name: 'web' } });
  });

  it('answers kubectl’s Table Accept header with Tables for reads, and plain JSON for writes', async () => {
    const one = await call('GET', WEB, undefined, { accept: TABLE_ACCEPT });
    expect(one.headers.get('content-type')).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(one.json.kind).toBe('Table');
    const list = await call('GET', `${collectionPath(DEPLOYMENT)}?limit=500`, undefined, { accept: TABLE_ACCEPT });
    expect(list.json.rows.map((row: any) => row.cells[0])).toEqual(['web']);
    const written = await call('PUT', WEB, web, { accept: TABLE_ACCEPT });
    expect(written.headers.get('content-type')).toBe('application/json');
    expect(written.json.kind).toBe('Deployment');
  });
});

describe('export and exact', () => {
  const NS = 'export';
  let exported: any;
  let name: string;

  beforeAll(async () => {
    const manifest = { ...DEPLOYMENT.manifest, metadata: { generateName: 'exp-', labels: { app: 'web' } } };
    const created = await call('POST', collectionPath(DEPLOYMENT, NS), manifest);
    name = created.json.metadata.name;
    const changed = structuredClone(created.json);
    changed.spec.replicas = 5;
    const updated = await call('PUT', itemPath(DEPLOYMENT, name, NS), changed);
    expect(updated.json.metadata.generation).toBe(2);
    exported = updated.json;
  });

  it('clears what a user cannot set, and namespace and name (generateName is set)', async () => {
    const response = await call('GET', `${itemPath(DEPLOYMENT, name, NS)}?export=true`);
    expect(response.status).toBe(200);
    expect(response.json.metadata).toEqual({
      generateName: 'exp-',
      selfLink: itemPath(DEPLOYMENT, name, NS),
      generation: 1,
      creationTimestamp: null,
      labels: { app: 'web' },
    });
    expect(response.json.status).toEqual({});
    expect(response.json.spec).toEqual(exported.spec);
  });

  it('keeps namespace and name with exact=true', async () => {
    const response = await call('GET', `${itemPath(DEPLOYMENT, name, NS)}?export=true&exact=true`);
    expect(response.json.metadata).toEqual({
      name,
      generateName: 'exp-',
      namespace: NS,
      selfLink: itemPath(DEPLOYMENT, name, NS),
      generation: 1,
      creationTimestamp: null,
      labels: { app: 'web' },
    });
  });

  it('does nothing with exact alone', async () => {
    const response = await call('GET', `${itemPath(DEPLOYMENT, name, NS)}?exact=true`);
    expect(response.json).toEqual(exported);
  });

  it('keeps the name when there is no generateName, and the client’s generation of a PodSecurityPolicy', async () => {
    const PSP = kind('PodSecurityPolicy');
    const manifest = { ...PSP.manifest, metadata: { name: 'exported', generation: 4 } };
    expect((await call('POST', collectionPath(PSP), manifest)).status).toBe(201);
    const response = await call('GET', `${itemPath(PSP, 'exported')}?export=1`);
    expect(response.json.metadata).toEqual({
      name: 'exported',
      selfLink: itemPath(PSP, 'exported'),
      generation: 4,
      creationTimestamp: null,
    });
  });

  it('leaves the stored object alone', async () => {
    const response = await call('GET', itemPath(DEPLOYMENT, name, NS));
    expect(response.json).toEqual(exported);
  });
});

describe('generateName', () => {
  const SUFFIX = '[bcdfghjklmnpqrstvwxz0-9]{5}';

  it('appends five random characters to the prefix', async () => {
    const body = { ...DEPLOYMENT.manifest, metadata: { generateName: 'web-' } };
    const first = await call('POST', collectionPath(DEPLOYMENT, 'generated'), body);
    const second = await call('POST', collectionPath(DEPLOYMENT, 'generated'), body);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.json.metadata.name).toMatch(new RegExp(`^web-${SUFFIX}$`));
    expect(first.json.metadata.generateName).toBe('web-');
    expect(second.json.metadata.name).not.toBe(first.json.metadata.name);
    expect(first.json.metadata.selfLink).toBe(itemPath(DEPLOYMENT, first.json.metadata.name, 'generated'));
  });

  it('cuts a long prefix to 58 characters', async () => {
    const prefix = `${'a'.repeat(60)}-`;
    const response = await call('POST', collectionPath(DEPLOYMENT, 'generated'), { ...DEPLOYMENT.manifest, metadata: { generateName: prefix } });
    expect(response.status).toBe(201);
    expect(response.json.metadata.name).toMatch(new RegExp(`^${'a'.repeat(58)}${SUFFIX}$`));
    expect(response.json.metadata.generateName).toBe(prefix);
  });

  it('prefers the name when both are given', async () => {
    const response = await call('POST', collectionPath(DEPLOYMENT, 'generated'), { ...DEPLOYMENT.manifest, metadata: { name: 'named', generateName: 'web-' } });
    expect(response.json.metadata.name).toBe('named');
  });

  it('is not supported by ThirdPartyResource (422, name required)', async () => {
    const TPR = kind('ThirdPartyResource');
    const response = await call('POST', collectionPath(TPR), { ...TPR.manifest, metadata: { generateName: 'cron-tab.example.com-' } });
    expect(response.status).toBe(422);
    expect(response.json.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
    ]);
  });
});

describe('namespace', () => {
  it('is taken from the path when the body has none', async () => {
    const response = await call('POST', collectionPath(DEPLOYMENT, 'team-a'), { ...DEPLOYMENT.manifest, metadata: { name: 'from-path' } });
    expect(response.status).toBe(201);
    expect(response.json.metadata.namespace).toBe('team-a');
    expect(response.json.metadata.selfLink).toBe(itemPath(DEPLOYMENT, 'from-path', 'team-a'));
    expect((await storedBody('deployments', 'team-a', 'from-path')).metadata.namespace).toBe('team-a');
  });

  it.each(KINDS.filter((k) => !k.namespaced).map((k) => [k.kind, k] as const))(
    'is cleared from the body of a cluster-scoped %s, on create and on replace',
    async (_kind, k) => {
      const name = k.kind === 'ThirdPartyResource' ? 'scoped.example.com' : 'scoped';
      const body = { ...k.manifest, metadata: { name, namespace: 'default' } };
      const created = await call('POST', collectionPath(k), body);
      expect(created.status).toBe(201);
      expect(created.json.metadata.namespace).toBeUndefined();
      expect(created.json.metadata.selfLink).toBe(itemPath(k, name));
      const replaced = await call('PUT', itemPath(k, name), { ...created.json, metadata: { ...created.json.metadata, namespace: 'other' } });
      expect(replaced.status).toBe(200);
      expect(replaced.json.metadata.namespace).toBeUndefined();
      const rows = await server().sql<{ namespace: string; body: any }>('SELECT namespace, body FROM objects WHERE resource = $1 AND name = $2', [k.resource, name]);
      expect(rows).toHaveLength(1);
      expect(rows[0].namespace).toBe('');
      expect((rows[0].body as any).metadata.namespace).toBeUndefined();
    },
  );
});

describe('fields the client may not set', () => {
  it('drops unknown top-level and metadata fields', async () => {
    const metadata = JSON.parse('{"name": "unknown-fields", "madeUp": "x", "__proto__": {"name": "other"}}');
    const body = { ...DEPLOYMENT.manifest, bogus: { a: 1 }, metadata };
    const response = await call('POST', collectionPath(DEPLOYMENT), body);
    expect(response.status).toBe(201);
    expect(response.json).not.toHaveProperty('bogus');
    expect(response.json.metadata).not.toHaveProperty('madeUp');
    expect(Object.keys(response.json.metadata)).not.toContain('__proto__');
    const stored = await storedBody('deployments', 'default', 'unknown-fields');
    expect(stored).not.toHaveProperty('bogus');
    expect(stored.metadata).not.toHaveProperty('madeUp');
  });

  it('ignores selfLink, uid, creationTimestamp, deletion fields and clusterName on create', async () => {
    const metadata = {
      name: 'server-set',
      selfLink: '/somewhere/else',
      uid: '00000000-0000-0000-0000-000000000000',
      creationTimestamp: '2001-01-01T00:00:00Z',
      deletionTimestamp: '2001-01-02T00:00:00Z',
      deletionGracePeriodSeconds: 30,
      clusterName: 'far-away',
    };
    const response = await call('POST', collectionPath(DEPLOYMENT), { ...DEPLOYMENT.manifest, metadata });
    expect(response.status).toBe(201);
    const meta = response.json.metadata;
    expect(meta.selfLink).toBe(itemPath(DEPLOYMENT, 'server-set'));
    expect(meta.uid).not.toBe(metadata.uid);
    expect(meta.creationTimestamp).not.toBe(metadata.creationTimestamp);
    for (const field of ['deletionTimestamp', 'deletionGracePeriodSeconds', 'clusterName']) expect(meta).not.toHaveProperty(field);
  });

  it('ignores a selfLink on replace, and stores neither selfLink nor resourceVersion', async () => {
    const current = (await call('GET', WEB)).json;
    const body = { ...current, metadata: { ...current.metadata, selfLink: '/somewhere/else', labels: { app: 'web', replaced: 'yes' } } };
    const replaced = await call('PUT', WEB, body);
    expect(replaced.status).toBe(200);
    expect(replaced.json.metadata.selfLink).toBe(WEB);
    const stored = await storedBody('deployments', 'default', 'web');
    expect(stored.metadata).not.toHaveProperty('selfLink');
    expect(stored.metadata).not.toHaveProperty('resourceVersion');
    expect(stored.metadata.uid).toBe(web.metadata.uid);
  });
});
