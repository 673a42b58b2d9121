import { jsonMembers } from '../src/registry/json-members';
import { KubeObject } from '../src/apimachinery/meta/kube-object';
import { listOutputJson, toListOutput } from '../src/registry/object-output';
import { EXTENSIONS_KINDS } from '../src/modules/extensions/extensions.kinds';

describe('jsonMembers', () => {
  it('splits the top-level members of jsonb-rendered text without parsing their values', () => {
    const value = {
      kind: 'Deployment',
      spec: { a: [1, { b: '}],{"' }], 'c"d': 'x\\"y,z:{' },
      n: -1.5e3,
      t: true,
      z: null,
      'we"ird': '\\',
      e: {},
      l: [],
    };
    const spaced = JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
    for (const text of [JSON.stringify(value), spaced]) {
      const members = jsonMembers(text);
      expect(members.map((m) => JSON.parse(`"${m.key}"`))).toEqual(Object.keys(value));
      expect(Object.fromEntries(members.map((m) => [JSON.parse(`"${m.key}"`), JSON.parse(m.value)]))).toEqual(value);
    }
  });

  it('finds no member in an empty object', () => {
    expect(jsonMembers('{}')).toEqual([]);
  });
});

describe('listOutputJson', () => {
  it('writes the list toListOutput describes, keys in the same order, from bodies as PostgreSQL renders jsonb', () => {
    const def = EXTENSIONS_KINDS.find((k) => k.resource === 'deployments')!;
    const bodies: KubeObject[] = [
      {
        kind: 'Deployment',
        apiVersion: 'extensions/v1beta1',
        metadata: { uid: 'u1', name: 'web', labels: { 'a"b': 'c,d' }, namespace: 'ns', generation: 2, annotations: {}, creationTimestamp: null },
        spec: { replicas: 3, template: { spec: { containers: [{ name: 'x', args: ['{', '}'] }] } } },
        status: {},
      },
      { metadata: { name: 'bare', ...{ 'odd\\key': 'v' } } },
    ];
    const spaced = (o: unknown) => JSON.stringify(o, null, 1).replace(/\n\s*/g, ' ');
    const text = listOutputJson(def, bodies.map((b, i) => ({ resourceVersion: String(i + 5), body: spaced(b) })), '9', '/apis/x');
    const expected = toListOutput(def, bodies.map((b, i) => ({ ...b, metadata: { ...b.metadata, resourceVersion: String(i + 5) } })), '9', '/apis/x');
    expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(expected));
  });
});
