import { Reader, Writer } from 'protobufjs';
import { codecs, decodeEnveloped, encodeEnveloped } from '../../src/apiserver/codec/protobuf/envelope';
import { MappingError } from '../../src/apiserver/codec/protobuf/mapping-error';
import { messageType } from '../../src/apiserver/codec/protobuf/schema';
import { encodeWatchFrame } from '../../src/apiserver/codec/protobuf/watch-frame';
import { KINDS } from '../support/kinds';
import '../support/served-types';
import { PREFIX, protocDecode, unwrap, withoutNulls } from '../support/protobuf';

const EXT = 'extensions/v1beta1';
const deployment = (spec: unknown, metadata: Record<string, unknown> = { name: 'web' }) => ({
  kind: 'Deployment',
  apiVersion: EXT,
  metadata,
  spec,
});
const podSpec = (spec: Record<string, unknown>) =>
  deployment({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } });

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const codecOf = (type: string) => codecs.of(messageType(type));

/** protoc's view of an object's own message */
const protoc = (type: string, object: Record<string, unknown>) => protocDecode(type, unwrap(encodeEnveloped(object)).raw);

describe('envelope', () => {
  it('is the k8s\\0 prefix and an Unknown naming the kind, with the typed message in raw', () => {
    const bytes = encodeEnveloped(deployment({ replicas: 2 }));
    expect(bytes.subarray(0, 4)).toEqual(PREFIX);
    const { typeMeta, raw } = unwrap(bytes);
    expect(typeMeta).toBe('apiVersion: "extensions/v1beta1"\nkind: "Deployment"\n');
    expect(protocDecode('k8s.io.api.extensions.v1beta1.Deployment', raw)).toBe(
      'metadata {\n  name: "web"\n}\nspec {\n  replicas: 2\n}\n',
    );
  });

  it('round-trips every fixture', () => {
    for (const k of KINDS) {
      const object = { ...k.manifest, metadata: { ...k.manifest.metadata, creationTimestamp: '2017-08-01T10:00:00Z' } };
      expect(decodeEnveloped(encodeEnveloped(object))).toEqual(object);
    }
  });

  it('has messages for the core ReplicationController, Scale and DeploymentRollback', () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const objects = [
      { kind: 'ReplicationController', apiVersion: 'v1', metadata: { name: 'rc' }, spec: { replicas: 2, selector: { app: 'web' }, template } },
      { kind: 'ReplicationControllerList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: [{ metadata: { name: 'rc' } }] },
      { kind: 'Scale', apiVersion: EXT, metadata: { name: 'web' }, spec: { replicas: 3 }, status: { replicas: 2, selector: { app: 'web' }, targetSelector: 'app=web' } },
      { kind: 'DeploymentRollback', apiVersion: EXT, name: 'web', updatedAnnotations: { a: 'b' }, rollbackTo: { revision: 2 } },
    ];
    for (const object of objects) expect(decodeEnveloped(encodeEnveloped(object))).toEqual(object);
    expect(protoc('k8s.io.api.core.v1.ReplicationController', objects[0])).toContain('selector {\n    key: "app"\n    value: "web"\n  }');
    expect(protoc('k8s.io.api.extensions.v1beta1.DeploymentRollback', objects[3])).toContain('rollbackTo {\n  revision: 2\n}');
  });

  it('reads a body that names no kind as the expected kind', () => {
    const writer = Writer.create();
    writer.uint32(0x12).fork().uint32(0x0a).fork().uint32(0x0a).string('web').ldelim().ldelim();
    const body = Buffer.concat([PREFIX, writer.finish()]);
    expect(decodeEnveloped(body, { kind: 'Deployment' })).toEqual({ metadata: { name: 'web' } });
    expect(() => decodeEnveloped(body)).toThrow('the object has no kind');
  });

  it('chooses the message of a bare envelope by the version the endpoint takes', () => {
    const scale = { kind: 'Scale', apiVersion: EXT, metadata: { name: 'web' }, status: { replicas: 1, selector: { app: 'web' } } };
    const bare = Buffer.concat([PREFIX, Writer.create().uint32(0x12).bytes(unwrap(encodeEnveloped(scale)).raw).finish()]);
    expect(decodeEnveloped(bare, { kind: 'Scale', apiVersion: EXT })).toEqual({ metadata: { name: 'web' }, status: scale.status });
    expect(decodeEnveloped(bare, { kind: 'Scale', apiVersion: 'autoscaling/v1' }).status).toEqual({
      replicas: 1,
      selector: '\n\u0003app\u0012\u0003web', // the map entry read as autoscaling/v1's selector text
    });
  });

  it('refuses what is not an enveloped object', () => {
    expect(() => decodeEnveloped(Buffer.from('{"kind":"Deployment"}'))).toThrow(
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
    expect(() => decodeEnveloped(PREFIX)).toThrow('empty body');
    const whole = encodeEnveloped(deployment({ replicas: 2 }));
    expect(() => decodeEnveloped(whole.subarray(0, whole.length - 3))).toThrow(RangeError);
    const unknownKind = encodeEnveloped({ kind: 'Status', apiVersion: 'v1', status: 'Success' });
    unknownKind.set(Buffer.from('Stat0'), unknownKind.indexOf('Status'));
    expect(() => decodeEnveloped(unknownKind)).toThrow('no kind "Stat0s" is registered for version "v1"');
  });

  it('names the field whose wire type does not match', () => {
    const typeMeta = Writer.create().uint32(0x0a).string(EXT).uint32(0x12).string('Deployment').finish();
    const meta = Writer.create().uint32(0x08).uint32(7).finish(); // ObjectMeta.name (1) as a varint
    const raw = Writer.create().uint32(0x0a).bytes(meta).finish();
    const body = Buffer.concat([PREFIX, Writer.create().uint32(0x0a).bytes(typeMeta).uint32(0x12).bytes(raw).finish()]);
    expect(() => decodeEnveloped(body)).toThrow('metadata.name: wire type 0, expected 2');
  });

  it('cannot write a kind without a message', () => {
    expect(() => encodeEnveloped({ kind: 'CronTab', apiVersion: 'stable.example.com/v1' })).toThrow('no protobuf message');
  });
});

describe('JSON mapping', () => {
  it('writes a Time as seconds and nanos; JSON keeps whole seconds in UTC; null is absent', () => {
    const object = deployment({}, { name: 'web', creationTimestamp: '2017-08-01T10:00:00.123456789Z', deletionTimestamp: null });
    expect(protoc('k8s.io.api.extensions.v1beta1.Deployment', object)).toContain(
      'creationTimestamp {\n    seconds: 1501581600\n    nanos: 123456789\n  }',
    );
    const back = decodeEnveloped(encodeEnveloped(object));
    expect(back.metadata).toEqual({ name: 'web', creationTimestamp: '2017-08-01T10:00:00Z' });
    const offset = deployment({}, { name: 'web', creationTimestamp: '1970-01-01T00:59:59+01:00' });
    expect(protoc('k8s.io.api.extensions.v1beta1.Deployment', offset)).toContain('seconds: -1\n');
    expect(decodeEnveloped(encodeEnveloped(offset)).metadata).toEqual({ name: 'web', creationTimestamp: '1969-12-31T23:59:59Z' });
  });

  it('writes a MicroTime with six fraction digits in JSON', () => {
    const codec = codecOf(`${META}.MicroTime`);
    const writer = Writer.create();
    codec.encode('2017-08-01T10:00:00.123456Z', writer);
    const bytes = writer.finish();
    expect(protocDecode(`${META}.MicroTime`, bytes)).toBe('seconds: 1501581600\nnanos: 123456000\n');
    expect(codec.decode(Reader.create(bytes), bytes.length)).toBe('2017-08-01T10:00:00.123456Z');
  });

  it('writes IntOrString, Quantity, maps of quantities and int64 as the apiserver does', () => {
    const object = {
      ...podSpec({
        containers: [
          {
            name: 'c',
            image: 'i',
            resources: { limits: { cpu: '500m', memory: 1024 } },
            livenessProbe: { httpGet: { port: 'http' }, tcpSocket: { port: 8080 } },
          },
        ],
        securityContext: { runAsUser: 1000, supplementalGroups: [5, 6] },
      }),
      metadata: { name: 'web', generation: 9007199254740991 },
    };
    const text = protoc('k8s.io.api.extensions.v1beta1.Deployment', object);
    expect(text).toContain('generation: 9007199254740991');
    expect(text).toContain('key: "cpu"\n            value {\n              string: "500m"');
    expect(text).toContain('key: "memory"\n            value {\n              string: "1024"');
    expect(text).toContain('port {\n                type: 1\n                strVal: "http"');
    expect(text).toContain('port {\n                type: 0\n                intVal: 8080');
    const back = decodeEnveloped(encodeEnveloped(object)) as any;
    const container = back.spec.template.spec.containers[0];
    expect(container.resources.limits).toEqual({ cpu: '500m', memory: '1024' });
    expect(container.livenessProbe).toEqual({ httpGet: { port: 'http' }, tcpSocket: { port: 8080 } });
    expect(back.spec.template.spec.securityContext).toEqual({ runAsUser: 1000, supplementalGroups: [5, 6] });
    expect(back.metadata.generation).toBe(9007199254740991);
  });

  it('nests the fields JSON inlines: volume sources, probe handlers, ingress rule values, local references', () => {
    const object = podSpec({
      volumes: [{ name: 'data', emptyDir: {} }, { name: 'cfg', configMap: { name: 'settings', defaultMode: 420 } }],
      containers: [
        {
          name: 'c',
          image: 'i',
          env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
          readinessProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
        },
      ],
    });
    const text = protoc('k8s.io.api.extensions.v1beta1.Deployment', object);
    expect(text).toContain('volumeSource {\n          emptyDir {\n          }');
    expect(text).toContain('configMap {\n            localObjectReference {\n              name: "settings"');
    expect(text).toContain('handler {\n            exec {');
    expect(decodeEnveloped(encodeEnveloped(object))).toEqual(object);

    const ingress = KINDS.find((k) => k.kind === 'Ingress')!.manifest;
    expect(protoc('k8s.io.api.extensions.v1beta1.Ingress', ingress)).toContain(
      'rules {\n    host: "www.example.com"\n    ingressRuleValue {\n      http {',
    );
    expect(decodeEnveloped(encodeEnveloped(ingress))).toEqual(ingress);
  });

  it('writes bytes as base64 text in JSON', () => {
    const data = { kind: 'ThirdPartyResourceData', apiVersion: EXT, metadata: { name: 'd' }, data: Buffer.from('{"a":1}').toString('base64') };
    expect(protoc('k8s.io.api.extensions.v1beta1.ThirdPartyResourceData', data)).toContain('data: "{\\"a\\":1}"');
    expect(decodeEnveloped(encodeEnveloped(data))).toEqual(data);
  });

  it('writes discovery verbs as a Verbs message and keeps an empty list', () => {
    const list = {
      kind: 'APIResourceList',
      groupVersion: EXT,
      resources: [
        { name: 'deployments', singularName: '', namespaced: true, kind: 'Deployment', verbs: ['create', 'get'] },
        { name: 'replicationcontrollers', singularName: '', namespaced: true, kind: 'ReplicationControllerDummy', verbs: [] },
      ],
    };
    expect(protoc(`${META}.APIResourceList`, list)).toContain('verbs {\n    items: "create"\n    items: "get"\n  }');
    expect(decodeEnveloped(encodeEnveloped(list))).toEqual(list);
  });

  it('drops what the definitions lack, and nulls', () => {
    const object = deployment({ replicas: 1, unknownField: 'x', template: { metadata: { creationTimestamp: null } } });
    expect(decodeEnveloped(encodeEnveloped(object))).toEqual(withoutNulls(deployment({ replicas: 1, template: { metadata: {} } })));
  });

  it('names the first field that does not fit its definition', () => {
    const bad = (spec: unknown) => () => encodeEnveloped(deployment(spec));
    expect(bad({ replicas: 'two' })).toThrow(new MappingError('expected a 32-bit integer, got string "two"').within('replicas').within('spec'));
    expect(bad({ template: { spec: { containers: [{ name: 'a' }, { name: 7 }] } } })).toThrow(
      'spec.template.spec.containers[1].name: expected a string, got number 7',
    );
    expect(bad({ selector: { matchLabels: { app: 1 } } })).toThrow('spec.selector.matchLabels["app"]: expected a string, got number 1');
    expect(bad({ template: { metadata: { creationTimestamp: 'yesterday' } } })).toThrow(
      'spec.template.metadata.creationTimestamp: expected an RFC 3339 time, got string "yesterday"',
    );
    expect(bad({ strategy: { rollingUpdate: { maxSurge: 1.5 } } })).toThrow('spec.strategy.rollingUpdate.maxSurge: expected an integer or a string');
    expect(bad([1])).toThrow('spec: expected an object, got an array');
  });

  it('reads packed numbers and skips fields it does not know', () => {
    const writer = Writer.create();
    writer.uint32(0x0a).fork().uint32(0x0a).string('web').uint32((99 << 3) | 2).string('future').ldelim();
    const ctx = Writer.create().uint32(0x22).fork().int64(5).int64(6).ldelim().finish(); // supplementalGroups, packed
    const spec = Writer.create().uint32(0x72).bytes(ctx).finish(); // PodSpec.securityContext = 14
    const template = Writer.create().uint32(0x12).bytes(spec).finish(); // PodTemplateSpec.spec = 2
    writer.uint32(0x12).fork().uint32(0x1a).bytes(template).ldelim(); // Deployment.spec = 2, DeploymentSpec.template = 3
    const body = Buffer.concat([PREFIX, Writer.create().uint32(0x12).bytes(writer.finish()).finish()]);
    expect(decodeEnveloped(body, { kind: 'Deployment' })).toEqual({
      metadata: { name: 'web' },
      spec: { template: { spec: { securityContext: { supplementalGroups: [5, 6] } } } },
    });
  });
});

describe('watch frames', () => {
  it('is a big-endian length and a WatchEvent whose object is the whole enveloped object', () => {
    const object = deployment({ replicas: 3 });
    const frame = encodeWatchFrame('MODIFIED', object);
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    const text = protocDecode(`${META}.WatchEvent`, frame.subarray(4));
    expect(text).toMatch(/^type: "MODIFIED"\nobject \{\n {2}raw: "k8s\\000/);
    const reader = Reader.create(frame.subarray(4));
    const event = codecOf(`${META}.WatchEvent`).decode(reader, reader.len);
    expect(event).toEqual({ type: 'MODIFIED', object });
  });

  it('carries an ERROR event with its Status', () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Gone', code: 410 };
    const frame = encodeWatchFrame('ERROR', status);
    const raw = frame.subarray(frame.indexOf(PREFIX));
    const { typeMeta, raw: inner } = unwrap(raw);
    expect(typeMeta).toBe('apiVersion: "v1"\nkind: "Status"\n');
    expect(protocDecode(`${META}.Status`, inner)).toBe(
      'metadata {\n}\nstatus: "Failure"\nreason: "Gone"\ncode: 410\n',
    );
  });
});
