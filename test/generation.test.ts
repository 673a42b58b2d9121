import { collectionPath, itemPath, kindNamed as kind } from './support/kinds';
import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
const { call } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);

/** Creates the kind's fixture (with `generation` as the client's), applies each change by PUT, answers the generations. */
async function generations(kindName: string, clientGeneration: number | undefined, ...changes: ((o: any) => void)[]) {
  const k = kind(kindName);
  const name = k.manifest.metadata.name;
  const manifest = structuredClone(k.manifest);
  if (clientGeneration !== undefined) manifest.metadata.generation = clientGeneration;
  let object = (await call('POST', collectionPath(k), manifest)).json;
  const seen = [object.metadata.generation];
  for (const change of changes) {
    const body = structuredClone(object);
    change(body);
    object = (await call('PUT', itemPath(k, name), body)).json;
    seen.push(object.metadata.generation);
  }
  await call('DELETE', `${itemPath(k, name)}?propagationPolicy=Background`);
  return { seen, last: object };
}

const annotate = (o: any) => {
  o.metadata.annotations = { note: String(Math.random()) };
};
const label = (o: any) => {
  o.metadata.labels = { ...o.metadata.labels, extra: String(Math.random()).slice(2) };
};
const clientGeneration = (o: any) => {
  o.metadata.generation = 40;
};

describe('generation', () => {
  it('Deployment: 1 on create whatever the client says; +1 on spec or annotation changes only', async () => {
    const replicas = (o: any) => {
      o.spec.replicas += 1;
    };
    const { seen } = await generations('Deployment', 7, label, annotate, replicas, clientGeneration);
    expect(seen).toEqual([1, 1, 2, 3, 3]);
  });

  it('ReplicaSet: +1 on spec changes, not on annotation changes', async () => {
    const { seen } = await generations('ReplicaSet', undefined, annotate, (o) => (o.spec.minReadySeconds = 3));
    expect(seen).toEqual([1, 1, 2]);
  });

  it('Ingress: +1 on spec changes', async () => {
    const { seen } = await generations('Ingress', undefined, annotate, (o) => (o.spec.rules[0].host = 'api.example.com'));
    expect(seen).toEqual([1, 1, 2]);
  });

  it('DaemonSet: a template change raises generation and templateGeneration; other spec changes the generation only', async () => {
    const image = (o: any) => (o.spec.template.spec.containers[0].image = 'example/agent:2.0');
    const { seen, last } = await generations(
      'DaemonSet',
      undefined,
      (o) => (o.spec.minReadySeconds = 5),
      image,
      (o) => (o.spec.templateGeneration = 99),
    );
    expect(seen).toEqual([1, 2, 3, 3]);
    expect(last.spec.templateGeneration).toBe(2);
  });

  it.each(['PodSecurityPolicy', 'ThirdPartyResource', 'Cluster'])('%s: the client value is kept on create and never changes', async (kindName) => {
    const change = (o: any) => {
      if (o.spec) o.spec = { ...o.spec, hostNetwork: true, secretRef: { name: 'other' } };
      else o.description = 'changed';
    };
    const kept = await generations(kindName, 5, change, clientGeneration);
    expect(kept.seen).toEqual([5, 5, 5]);
    const absent = await generations(kindName, undefined, change);
    expect(absent.seen).toEqual([undefined, undefined]);
  });
});
