import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Reader } from 'protobufjs';
import { decodeEnveloped, encodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { useTestServer } from './support/api';
import { PROTOBUF, unwrap, withoutNulls } from './support/protobuf';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

/** Upstream's current apps/v1 messages and those they import, as k8s.io/api and apimachinery generate them. */
const PROTO_DIR = join(__dirname, 'fixtures', 'proto-current');

/** protoc's text form of `bytes` read as `type`, with upstream's current definitions. */
const protocDecode = (type: string, bytes: Uint8Array) =>
  execFileSync('protoc', ['-I', PROTO_DIR, `--decode=${type}`, 'k8s.io/api/apps/v1/generated.proto'], { input: bytes, stdio: ['pipe', 'pipe', 'ignore'] }).toString('utf8');

/** protoc writes a field its definitions lack as its bare number. */
const UNKNOWN_FIELD = /^\s*\d+:/m;

// the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
const { call, server } = useTestServer(['apps-pb'], WITHOUT_DEPLOYMENT_CONTROLLER);
const V1 = '/apis/apps/v1/namespaces/apps-pb';
const inProtobuf = { accept: PROTOBUF };

const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] } });
const selector = (app: string) => ({ matchLabels: { app } });

const OBJECTS = [
  { resource: 'deployments', kind: 'Deployment', object: { metadata: { name: 'web' }, spec: { replicas: 2, selector: selector('web'), template: template('web') } } },
  { resource: 'replicasets', kind: 'ReplicaSet', object: { metadata: { name: 'web-1' }, spec: { replicas: 1, selector: selector('rs'), template: template('rs') } } },
  { resource: 'daemonsets', kind: 'DaemonSet', object: { metadata: { name: 'agent' }, spec: { selector: selector('agent'), template: template('agent') } } },
];

describe.each(OBJECTS)('apps/v1 $kind in protobuf', ({ resource, kind, object }) => {
  it('is written and read as upstream’s k8s.io.api.apps.v1 message, which protoc decodes with no field unknown', async () => {
    const created = await call('POST', `${V1}/${resource}`, encodeEnveloped({ apiVersion: 'apps/v1', kind, ...object }), {
      'content-type': PROTOBUF,
      ...inProtobuf,
    });
    expect(created.status).toBe(201);
    const pb = await call('GET', `${V1}/${resource}/${object.metadata.name}`, undefined, inProtobuf);
    const json = await call('GET', `${V1}/${resource}/${object.metadata.name}`);
    const { typeMeta, raw } = unwrap(pb.bytes);
    expect(typeMeta).toBe(`apiVersion: "apps/v1"\nkind: "${kind}"\n`);
    const text = protocDecode(`k8s.io.api.apps.v1.${kind}`, raw);
    expect(text).not.toMatch(UNKNOWN_FIELD);
    expect(text).toContain(`  name: "${object.metadata.name}"\n`);
    expect(text).toContain('        image: "nginx:1.27"\n');
    expect(decodeEnveloped(pb.bytes)).toEqual(withoutNulls(json.json));

    const list = await call('GET', `${V1}/${resource}`, undefined, inProtobuf);
    const listed = unwrap(list.bytes);
    expect(listed.typeMeta).toBe(`apiVersion: "apps/v1"\nkind: "${kind}List"\n`);
    const listText = protocDecode(`k8s.io.api.apps.v1.${kind}List`, listed.raw);
    expect(listText).not.toMatch(UNKNOWN_FIELD);
    expect(listText.match(/^items \{/gm)).toHaveLength(1);
  });
});

describe('apps/v1 watch in protobuf', () => {
  it('streams WatchEvents of apps/v1 objects, written through extensions too, which protoc decodes', async () => {
    const client = await WatchClient.open(server().url, `${V1}/deployments?watch=true&resourceVersion=0`, { accept: `${PROTOBUF};stream=watch` });
    try {
      expect(client.headers['content-type']).toBe(`${PROTOBUF};stream=watch`);
      const manifest = { apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'from-ext' }, spec: { selector: selector('x'), template: template('x') } };
      await call('POST', '/apis/extensions/v1beta1/namespaces/apps-pb/deployments', manifest);
      await call('DELETE', `${V1}/deployments/from-ext`, { propagationPolicy: 'Background' });
      await client.until((events) => events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'from-ext'));
      const mine = client.frames.filter((_, i) => client.events[i].object.metadata.name === 'from-ext');
      expect(mine).toHaveLength(2);
      for (const frame of mine) {
        expect(protocDecode('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent', frame)).toMatch(/^type: "(ADDED|DELETED)"\nobject \{\n {2}raw: "k8s\\000/);
        const reader = Reader.create(frame);
        reader.uint32();
        reader.string();
        reader.uint32();
        const object = Reader.create(reader.bytes());
        object.uint32();
        const { typeMeta, raw } = unwrap(object.bytes());
        expect(typeMeta).toBe('apiVersion: "apps/v1"\nkind: "Deployment"\n');
        const text = protocDecode('k8s.io.api.apps.v1.Deployment', raw);
        expect(text).not.toMatch(UNKNOWN_FIELD);
        expect(text).toContain('  name: "from-ext"\n');
      }
    } finally {
      client.close();
    }
  });
});
