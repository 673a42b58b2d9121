import { load } from 'js-yaml';
import { decodeEnveloped, encodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { resourceKind } from '../src/apimachinery/meta/object-meta-schema';
import { goPackage } from '../src/apimachinery/schema/go-packages';
import { mergedBy, s } from '../src/apimachinery/schema/schema';
import { nameRules } from '../src/apimachinery/validation/names';
import { defineKind } from '../src/registry/define-kind';
import { defineStrategy } from '../src/registry/kind-definition';
import { KindRegistry } from '../src/registry/kind-registry';
import { useTestServer } from './support/api';
import { PROTOBUF } from './support/protobuf';

/**
 * Adding a kind takes its shape, its strategy and one registry row: nothing in the handlers, codecs or patch engines
 * names a kind. This one is made up for the test and registered on a running server.
 */
const WIDGETS = { group: 'widgets.example.com', version: 'v1', legacyDiscovery: false };
const WIDGETS_V1 = goPackage('com.example.widgets.v1', 'widgets.example.com/v1');

const WIDGET_PORT = WIDGETS_V1.struct('WidgetPort', {
  name: [1, s.string],
  port: [2, s.int32],
});

const WIDGET = resourceKind(WIDGETS_V1, 'Widget', {
  spec: [
    2,
    WIDGETS_V1.struct('WidgetSpec', {
      size: [1, s.quantity],
      ports: [2, s.list(WIDGET_PORT), mergedBy('name')],
    }),
  ],
});

const WIDGET_KIND = defineKind(WIDGETS, {
  resource: 'widgets',
  kind: 'Widget',
  namespaced: true,
  strategy: defineStrategy({ nameRule: nameRules.dns1123Subdomain, shape: WIDGET }),
});

const { call, server } = useTestServer();
const COLLECTION = '/apis/widgets.example.com/v1/namespaces/default/widgets';

beforeAll(() => server().app.get(KindRegistry).registerGroup(WIDGETS, [WIDGET_KIND]));

const widget = (name: string, ports: { name: string; port: number }[]) => ({
  apiVersion: 'widgets.example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { size: '1.5Gi', ports, colour: 'blue' },
});

it('is served in JSON as its shape says: known fields kept, unknown ones dropped, quantities canonical', async () => {
  const created = await call('POST', COLLECTION, widget('a', [{ name: 'http', port: 80 }]));
  expect(created.status).toBe(201);
  expect(created.json.spec).toEqual({ size: '1536Mi', ports: [{ name: 'http', port: 80 }] });
  const wrongType = await call('POST', COLLECTION, { ...widget('b', []), spec: { ports: [{ port: 'eighty' }] } });
  expect(wrongType.status).toBe(400);
  expect(wrongType.json.message).toContain('Go struct field WidgetPort.spec.ports.port of type int32');
});

it('is served in YAML', async () => {
  const yaml = await call('GET', `${COLLECTION}/a`, undefined, { accept: 'application/yaml' });
  expect(yaml.status).toBe(200);
  expect((load(yaml.text) as any).spec.ports).toEqual([{ name: 'http', port: 80 }]);
});

it('is served in protobuf, both ways', async () => {
  const pb = await call('GET', `${COLLECTION}/a`, undefined, { accept: PROTOBUF });
  expect(pb.status).toBe(200);
  expect(pb.headers.get('content-type')).toBe(PROTOBUF);
  expect((decodeEnveloped(pb.bytes) as any).spec).toEqual({ size: '1536Mi', ports: [{ name: 'http', port: 80 }] });
  const body = encodeEnveloped(widget('c', [{ name: 'grpc', port: 9000 }]));
  const created = await call('POST', COLLECTION, body, { 'content-type': PROTOBUF });
  expect(created.status).toBe(201);
  expect(created.json.spec.ports).toEqual([{ name: 'grpc', port: 9000 }]);
});

it('merges its lists by their merge key in a strategic merge patch', async () => {
  const patched = await call('PATCH', `${COLLECTION}/a`, JSON.stringify({ spec: { ports: [{ name: 'https', port: 443 }] } }), {
    'content-type': 'application/strategic-merge-patch+json',
  });
  expect(patched.status).toBe(200);
  expect(patched.json.spec.ports).toEqual([
    { name: 'https', port: 443 },
    { name: 'http', port: 80 },
  ]);
});
