import { ADD, DELETE, KubeConfig, KubernetesObject, makeInformer, UPDATE } from '@kubernetes/client-node';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { until } from './support/until';

// @kubernetes/client-node's informer against the server: it lists (here page by page, as client-go's reflector
// does), watches from the list's resourceVersion, and relists when its watch is told 410 Gone.

const DEPLOYMENT = kindNamed('Deployment');
const NAMESPACE = 'informed';
const { call, server } = useTestServer([NAMESPACE]);
const PATH = collectionPath(DEPLOYMENT, NAMESPACE);

const create = (name: string) => call('POST', PATH, { ...DEPLOYMENT.manifest, metadata: { name } });

it('lists in pages, follows every change, and relists after a 410', async () => {
  for (const name of ['a', 'b', 'c', 'd', 'e']) expect((await create(name)).status).toBe(201);
  const pages: number[] = [];
  let lists = 0;
  // the first list answers a resourceVersion the history no longer holds, so that the watch from it gets a 410
  const listFn = async () => {
    lists += 1;
    const items: KubernetesObject[] = [];
    let token = '';
    let resourceVersion = '';
    do {
      const page = (await call('GET', `${PATH}?limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`)).json;
      items.push(...page.items);
      pages.push(page.items.length);
      resourceVersion ||= page.metadata.resourceVersion;
      token = page.metadata.continue ?? '';
    } while (token);
    return { response: {} as never, body: { items, metadata: { resourceVersion: lists === 1 ? '1' : resourceVersion } } };
  };
  await server().sql('UPDATE change_log_compaction SET compacted_through = (SELECT max(resource_version) FROM change_log)');

  const kubeconfig = new KubeConfig();
  kubeconfig.loadFromOptions({
    clusters: [{ name: 'pgkube', server: server().url, skipTLSVerify: true }],
    users: [{ name: 'tester' }],
    contexts: [{ name: 'test', cluster: 'pgkube', user: 'tester' }],
    currentContext: 'test',
  });
  const informer = makeInformer(kubeconfig, PATH, listFn);
  const seen: string[] = [];
  informer.on(ADD, (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on(UPDATE, (o) => seen.push(`update ${o.metadata?.name}`));
  informer.on(DELETE, (o) => seen.push(`delete ${o.metadata?.name}`));
  await informer.start();
  try {
    await until(() => lists >= 2); // the 410 made it list again
    expect(pages.slice(0, 3)).toEqual([2, 2, 1]);
    await until(() => seen.filter((e) => e.startsWith('add')).length === 5);

    expect((await create('f')).status).toBe(201);
    const patched = await call('PATCH', itemPath(DEPLOYMENT, 'a', NAMESPACE), { spec: { replicas: 5 } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    expect((await call('DELETE', itemPath(DEPLOYMENT, 'b', NAMESPACE))).status).toBe(200);
    await until(() => seen.includes('delete b'));
    expect(seen).toEqual(expect.arrayContaining(['add f', 'update a', 'delete b']));
    expect(informer.list(NAMESPACE).map((o) => o.metadata?.name).sort()).toEqual(['a', 'c', 'd', 'e', 'f']);
  } finally {
    await informer.stop();
  }
});
