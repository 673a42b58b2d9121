import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { Reader, Writer } from 'protobufjs';
import { decodeEnveloped, encodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed, KINDS } from './support/kinds';
import { PREFIX, PROTOBUF, protocDecode, unwrap, withoutNulls } from './support/protobuf';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// the objects, writes and events of the tests' own requests are compared exactly: no controller writes besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const inProtobuf = { accept: PROTOBUF };
const protobufBody = (object: Record<string, unknown>) => ({ body: encodeEnveloped(object), type: { 'content-type': PROTOBUF } });
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
/** a varint length */
const encodeLength = (n: number) => Buffer.from(Writer.create().uint32(n).finish());

/** An object as it was written, without what the server sets per object. */
function comparable(object: any): unknown {
  const { name, uid, resourceVersion, creationTimestamp, selfLink, managedFields, ...meta } = object.metadata;
  // like creationTimestamp, the time of a managed fields entry is the server's clock at the write
  const entries = managedFields?.map(({ time, ...entry }: { time: string }) => entry);
  return { ...object, metadata: { ...meta, managedFields: entries } };
}

describe.each(KINDS)('$kind', (k) => {
  const name = k.manifest.metadata.name as string;

  it('reads an object written in JSON back in protobuf as the same object', async () => {
    expect((await call('POST', collectionPath(k), k.manifest)).status).toBe(201);
    const json = await call('GET', itemPath(k, name));
    const pb = await call('GET', itemPath(k, name), undefined, inProtobuf);
    expect(pb.status).toBe(200);
    expect(pb.headers.get('content-type')).toBe(PROTOBUF);
    expect(pb.bytes.subarray(0, 4)).toEqual(PREFIX);
    expect(unwrap(pb.bytes).typeMeta).toBe(`apiVersion: "${k.group}/v1beta1"\nkind: "${k.kind}"\n`);
    expect(decodeEnveloped(pb.bytes)).toEqual(withoutNulls(json.json));
    await call('DELETE', itemPath(k, name), { propagationPolicy: 'Background' });
  });

  it('writes an object sent in protobuf as the same object as one sent in JSON; replaces and deletes in protobuf', async () => {
    const pbName = `pb-${name}`;
    const viaJson = await call('POST', collectionPath(k), k.manifest);
    const { body, type } = protobufBody({ ...k.manifest, metadata: { ...k.manifest.metadata, name: pbName } });
    const viaProtobuf = await call('POST', collectionPath(k), body, type);
    expect(viaProtobuf.status).toBe(201);
    expect(viaProtobuf.json.metadata.name).toBe(pbName);
    expect(comparable(viaProtobuf.json)).toEqual(comparable(viaJson.json));

    const changed = { ...viaProtobuf.json, metadata: { ...viaProtobuf.json.metadata, labels: { changed: 'yes' } } };
    const replaced = await call('PUT', itemPath(k, pbName), protobufBody(changed).body, { ...type, ...inProtobuf });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('content-type')).toBe(PROTOBUF);
    expect(decodeEnveloped(replaced.bytes)).toMatchObject({ metadata: { name: pbName, labels: { changed: 'yes' } } });

    const options = protobufBody({ kind: 'DeleteOptions', apiVersion: `${k.group}/v1beta1`, propagationPolicy: 'Background' });
    const removed = await call('DELETE', itemPath(k, pbName), options.body, options.type);
    expect(removed.status).toBe(200);
    expect((await call('GET', itemPath(k, pbName))).status).toBe(404);
    await call('DELETE', itemPath(k, name), { propagationPolicy: 'Background' });
  });
});

describe('core ReplicationControllers and the subresources in protobuf', () => {
  const rcs = '/api/v1/namespaces/default/replicationcontrollers';
  const rc = load(readFileSync(join(__dirname, 'fixtures', 'replicationcontroller.yaml'), 'utf8')) as Record<string, any>;
  const deployments = kindNamed('Deployment');
  const web = itemPath(deployments, 'web');
  afterEach(async () => {
    await call('DELETE', `${rcs}/z`, { propagationPolicy: 'Background' });
    await call('DELETE', web, { propagationPolicy: 'Background' });
  });

  it('reads and writes a v1 ReplicationController and its autoscaling/v1 Scale', async () => {
    const { body, type } = protobufBody(rc);
    const created = await call('POST', rcs, body, { ...type, ...inProtobuf });
    expect(created.status).toBe(201);
    expect(unwrap(created.bytes).typeMeta).toBe('apiVersion: "v1"\nkind: "ReplicationController"\n');
    expect(decodeEnveloped(created.bytes)).toEqual(withoutNulls((await call('GET', `${rcs}/z`)).json));

    const scale = await call('GET', `${rcs}/z/scale`, undefined, inProtobuf);
    const { typeMeta, raw } = unwrap(scale.bytes);
    expect(typeMeta).toBe('apiVersion: "autoscaling/v1"\nkind: "Scale"\n');
    expect(protocDecode('k8s.io.api.autoscaling.v1.Scale', raw)).toMatch(/status \{\n {2}replicas: 0\n {2}selector: "app=z"\n\}/);
    const scaled = { ...decodeEnveloped(scale.bytes), spec: { replicas: 4 } };
    expect((await call('PUT', `${rcs}/z/scale`, ...Object.values(protobufBody(scaled)))).status).toBe(200);
    expect((await call('GET', `${rcs}/z`)).json.spec.replicas).toBe(4);
  });

  it('writes the status, the extensions Scale and the rollback of a Deployment from protobuf bodies', async () => {
    await call('POST', collectionPath(deployments), deployments.manifest);
    const current = (await call('GET', web)).json;
    const status = protobufBody({ ...current, status: { replicas: 2, readyReplicas: 1 } });
    expect((await call('PUT', `${web}/status`, status.body, status.type)).status).toBe(200);
    expect((await call('GET', web)).json.status).toMatchObject({ replicas: 2, readyReplicas: 1 });

    const scale = await call('GET', `${web}/scale`, undefined, inProtobuf);
    expect(unwrap(scale.bytes).typeMeta).toBe('apiVersion: "extensions/v1beta1"\nkind: "Scale"\n');
    const scaled = protobufBody({ ...decodeEnveloped(scale.bytes), spec: { replicas: 5 } });
    expect((await call('PUT', `${web}/scale`, scaled.body, scaled.type)).status).toBe(200);
    expect((await call('GET', web)).json.spec.replicas).toBe(5);

    const rollback = protobufBody({ kind: 'DeploymentRollback', apiVersion: 'extensions/v1beta1', name: 'web', rollbackTo: { revision: 2 } });
    const rolled = await call('POST', `${web}/rollback`, rollback.body, { ...rollback.type, ...inProtobuf });
    expect(rolled.status).toBe(201);
    expect(decodeEnveloped(rolled.bytes)).toMatchObject({ kind: 'Status', status: 'Success', code: 200 });
    expect((await call('GET', web)).json.spec.rollbackTo).toEqual({ revision: 2 });
  });

  it('reads a Scale whose envelope names no kind as the Scale of the endpoint', async () => {
    await call('POST', collectionPath(deployments), deployments.manifest);
    const current = (await call('GET', `${web}/scale`)).json;
    const bare = unwrap(encodeEnveloped({ ...current, spec: { replicas: 6 } })).raw;
    const body = Buffer.concat([PREFIX, Buffer.from([0x12]), encodeLength(bare.length), bare]); // Unknown with raw only
    expect((await call('PUT', `${web}/scale`, body, { 'content-type': PROTOBUF })).status).toBe(200);
    expect((await call('GET', web)).json.spec.replicas).toBe(6);
  });
});

describe('lists, Status and discovery in protobuf', () => {
  const deployments = kindNamed('Deployment');
  const named = (name: string) => ({ ...deployments.manifest, metadata: { ...deployments.manifest.metadata, name } });

  it('sends a list as one envelope of the list kind, which protoc decodes', async () => {
    for (const name of ['one', 'two']) await call('POST', collectionPath(deployments), named(name));
    const pb = await call('GET', collectionPath(deployments), undefined, inProtobuf);
    const json = await call('GET', collectionPath(deployments));
    expect(pb.status).toBe(200);
    const { typeMeta, raw } = unwrap(pb.bytes);
    expect(typeMeta).toBe('apiVersion: "extensions/v1beta1"\nkind: "DeploymentList"\n');
    const text = protocDecode('k8s.io.api.extensions.v1beta1.DeploymentList', raw);
    expect(text).toMatch(new RegExp(`^metadata \\{\\n  selfLink: "${collectionPath(deployments)}"\\n  resourceVersion: "\\d+"\\n\\}\\nitems \\{`));
    expect(text.match(/^items \{/gm)).toHaveLength(2);
    expect(text).toContain('    name: "one"\n');
    expect(text).toContain('    name: "two"\n');
    expect(decodeEnveloped(pb.bytes)).toEqual(withoutNulls(json.json));
  });

  it('sends errors and success Statuses in protobuf when protobuf is preferred', async () => {
    const missing = await call('GET', itemPath(deployments, 'nope'), undefined, inProtobuf);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe(PROTOBUF);
    const { typeMeta, raw } = unwrap(missing.bytes);
    expect(typeMeta).toBe('apiVersion: "v1"\nkind: "Status"\n');
    expect(protocDecode(`${META}.Status`, raw)).toBe(
      [
        'metadata {',
        '}',
        'status: "Failure"',
        'message: "deployments.extensions \\"nope\\" not found"',
        'reason: "NotFound"',
        'details {',
        '  name: "nope"',
        '  group: "extensions"',
        '  kind: "deployments"',
        '}',
        'code: 404',
        '',
      ].join('\n'),
    );

    await call('POST', collectionPath(deployments), named('status'));
    const conflict = await call('POST', collectionPath(deployments), named('status'), inProtobuf);
    expect(conflict.status).toBe(409);
    expect(decodeEnveloped(conflict.bytes)).toMatchObject({ kind: 'Status', reason: 'AlreadyExists', code: 409 });

    const removed = await call('DELETE', itemPath(deployments, 'status'), { propagationPolicy: 'Background' }, inProtobuf);
    expect(removed.status).toBe(200);
    expect(decodeEnveloped(removed.bytes)).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'status' } });
  });

  it.each(['/api', '/apis', '/apis/extensions', '/apis/extensions/v1beta1', '/apis/federation', '/apis/federation/v1beta1'])(
    'serves the discovery document %s in protobuf',
    async (path) => {
      const json = await call('GET', path);
      const pb = await call('GET', path, undefined, inProtobuf);
      expect(pb.status).toBe(200);
      expect(pb.headers.get('content-type')).toBe(PROTOBUF);
      const apiVersion = json.json.apiVersion ? `apiVersion: "${json.json.apiVersion}"\n` : '';
      expect(unwrap(pb.bytes).typeMeta).toBe(`${apiVersion}kind: "${json.json.kind}"\n`);
      // an empty list is no field at all in protobuf (/api lists no versions)
      const expected = withoutNulls(json.json) as Record<string, unknown>;
      if (Array.isArray(expected.versions) && expected.versions.length === 0) delete expected.versions;
      expect(decodeEnveloped(pb.bytes)).toEqual(expected);
    },
  );

  it('writes the version document in JSON whatever the Accept header', async () => {
    const version = await call('GET', '/version', undefined, inProtobuf);
    expect(version.headers.get('content-type')).toMatch(/^application\/json/);
    expect(version.json.major).toBe('1');
  });

  it('is answered by curl with bytes that start with k8s\\0', async () => {
    const curl = ['-s', '-H', `Accept: ${PROTOBUF}`, `${server().url}${collectionPath(deployments)}`];
    const { stdout: output } = await promisify(execFile)('curl', curl, { encoding: 'buffer' });
    expect(output.subarray(0, 4)).toEqual(PREFIX);
    expect(unwrap(output).typeMeta).toContain('kind: "DeploymentList"');
  });
});

describe('negotiation', () => {
  const path = '/apis/extensions/v1beta1';
  const typeFor = async (accept: string) =>
    (await call('GET', path, undefined, { accept })).headers.get('content-type')?.split(';')[0];

  it('chooses protobuf by q-value and order like the other types', async () => {
    expect(await typeFor(`${PROTOBUF}, application/json`)).toBe(PROTOBUF);
    expect(await typeFor(`application/json, ${PROTOBUF}`)).toBe('application/json');
    expect(await typeFor(`application/json;q=0.9, ${PROTOBUF}`)).toBe(PROTOBUF);
    expect(await typeFor(`${PROTOBUF};q=0.5, application/yaml`)).toBe('application/yaml');
    expect(await typeFor(`application/json;as=Table;v=v1;g=meta.k8s.io, ${PROTOBUF}`)).toBe(PROTOBUF);
  });

  it('lists protobuf among the types it offers and accepts', async () => {
    const refused = await call('GET', path, undefined, { accept: 'text/html' });
    expect(refused.status).toBe(406);
    expect(refused.json.message).toBe(
      'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
    const unsupported = await call('POST', '/apis/extensions/v1beta1/namespaces/default/deployments', '{}', { 'content-type': 'text/plain' });
    expect(unsupported.status).toBe(415);
    expect(unsupported.json.message).toContain('application/json, application/yaml, application/vnd.kubernetes.protobuf');
  });
});

describe('malformed protobuf bodies', () => {
  const deployments = kindNamed('Deployment');
  const post = (body: Buffer) => call('POST', collectionPath(deployments), body, { 'content-type': PROTOBUF });

  it('answers 400 when the prefix is missing', async () => {
    const response = await post(Buffer.from(JSON.stringify(deployments.manifest)));
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(response.json.message).toMatch(
      /^the object provided is unrecognized \(must be of type Deployment\): provided data does not appear to be a protobuf message, expected prefix \[107 56 115 0\] \(/,
    );
  });

  it('answers 400 to an empty envelope, a cut message and an unknown kind', async () => {
    expect((await post(PREFIX)).json.message).toContain('): empty body (');
    const whole = encodeEnveloped(deployments.manifest);
    const cut = await post(whole.subarray(0, whole.length - 5));
    expect(cut.status).toBe(400);
    expect(cut.json.message).toContain('index out of range');
    const unknown = encodeEnveloped({ kind: 'Status', apiVersion: 'v1' });
    unknown.set(Buffer.from('Xtatus'), unknown.indexOf('Status'));
    const refused = await post(unknown);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain('no kind "Xtatus" is registered for version "v1"');
  });

  it('refuses another kind in an envelope as it refuses it in JSON', async () => {
    const replicaSet = kindNamed('ReplicaSet').manifest;
    const viaProtobuf = await post(encodeEnveloped(replicaSet));
    const viaJson = await call('POST', collectionPath(deployments), replicaSet);
    expect(viaProtobuf.status).toBe(400);
    expect(viaProtobuf.json).toEqual(viaJson.json);
  });
});

describe('watch in protobuf', () => {
  const deployments = kindNamed('Deployment');
  const watchPath = `${collectionPath(deployments)}?watch=true&resourceVersion=0`;

  it('streams length-prefixed WatchEvents whose objects are enveloped, which protoc decodes', async () => {
    const client = await WatchClient.open(server().url, watchPath, { accept: `${PROTOBUF};stream=watch` });
    try {
      expect(client.status).toBe(200);
      expect(client.headers['content-type']).toBe(`${PROTOBUF};stream=watch`);
      const name = 'watched';
      await call('POST', collectionPath(deployments), { ...deployments.manifest, metadata: { name, labels: { app: 'web' } } });
      const current = (await call('GET', itemPath(deployments, name))).json;
      await call('PUT', itemPath(deployments, name), { ...current, metadata: { ...current.metadata, labels: { app: 'changed' } } });
      await call('DELETE', itemPath(deployments, name), { propagationPolicy: 'Background' });
      await client.until((events) => events.some((e) => e.type === 'DELETED' && e.object.metadata.name === name));

      const mine = client.events.flatMap((event, i) => (event.object.metadata.name === name ? [{ event, frame: client.frames[i] }] : []));
      expect(mine.map(({ event }) => event.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      expect(mine[1].event.object).toMatchObject({ kind: 'Deployment', apiVersion: 'extensions/v1beta1', metadata: { labels: { app: 'changed' } } });
      for (const { event, frame } of mine) {
        const text = protocDecode(`${META}.WatchEvent`, frame);
        expect(text).toMatch(new RegExp(`^type: "${event.type}"\\nobject \\{\\n  raw: "k8s\\\\000`));
        const reader = Reader.create(frame);
        reader.uint32(); // type
        reader.string();
        reader.uint32(); // object
        const object = Reader.create(reader.bytes());
        object.uint32(); // raw
        const { typeMeta, raw } = unwrap(object.bytes());
        expect(typeMeta).toBe('apiVersion: "extensions/v1beta1"\nkind: "Deployment"\n');
        expect(protocDecode('k8s.io.api.extensions.v1beta1.Deployment', raw)).toContain(`  name: "${name}"\n`);
      }
    } finally {
      client.close();
    }
  });

  it('offers watches in JSON and protobuf only', async () => {
    const refused = await call('GET', watchPath, undefined, { accept: 'application/yaml' });
    expect(refused.status).toBe(406);
    expect(refused.json.message).toBe(
      'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    );
  });
});
