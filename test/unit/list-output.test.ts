import { KubeObject } from '../../src/apimachinery/meta/kube-object';
import { listOutputJson, toListOutput } from '../../src/registry/object-output';
import { EXTENSIONS_KINDS } from '../../src/apis/extensions/extensions.kinds';

describe('listOutputJson', () => {
  it('writes the list toListOutput describes, keys in the same order, from the parts of bodies as PostgreSQL renders jsonb', () => {
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
    const parts = bodies.map(({ kind: _kind, apiVersion: _apiVersion, metadata, ...rest }, i) => ({ resourceVersion: String(i + 5), metadata: spaced(metadata), rest: spaced(rest) }));
    const text = listOutputJson(def, parts, '9', '/apis/x');
    const expected = toListOutput(def, bodies.map((b, i) => ({ ...b, metadata: { ...b.metadata, resourceVersion: String(i + 5) } })), '9', '/apis/x');
    expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(expected));
  });
});
