import { get } from 'node:http';
import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// An object or a list read again is answered from the items the server kept of its last read (the output cache):
// PostgreSQL writes only the rows whose resourceVersion changed. The answers must be those of a first read.

const NS = 'cached-lists';
const PAGE = `/apis/extensions/v1beta1/namespaces/${NS}/deployments?limit=3`;
const ALL = `/apis/extensions/v1beta1/namespaces/${NS}/deployments`;
const WATCH = `${ALL}?watch=1&timeoutSeconds=1`;
const { call, server } = useTestServer([NS], WITHOUT_DEPLOYMENT_CONTROLLER);

const deployment = (name: string) => ({
  apiVersion: 'extensions/v1beta1',
  kind: 'Deployment',
  metadata: { name, labels: { app: name } },
  spec: { template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
});
const names = (list: any) => list.items.map((item: any) => item.metadata.name);
const imageOf = (list: any, name: string) => list.items.find((item: any) => item.metadata.name === name).spec.template.spec.containers[0].image;
const eventsOf = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line));
/** The body of a GET whose response the client starts reading only after `ms`. */
const slowlyRead = (url: string, ms: number) =>
  new Promise<string>((resolve, reject) => {
    const request = get(url, (response) => {
      setTimeout(() => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(text));
      }, ms);
    });
    request.on('error', reject);
  });
/** A list's text but for the list's own resourceVersion, which moves with any write of the database. */
const itemsText = (text: string) => JSON.stringify(JSON.parse(text).items);

beforeAll(async () => {
  for (const name of ['a', 'b', 'c', 'd', 'e']) expect((await call('POST', ALL, deployment(name))).status).toBe(201);
});

it('answers a page read again with the same text', async () => {
  const first = await call('GET', PAGE);
  const again = await call('GET', PAGE);
  expect(again.status).toBe(200);
  expect(names(again.json)).toEqual(['a', 'b', 'c']);
  expect(again.text).toBe(first.text);
});

it('answers a page with the objects as they are now after writes through the API and through SQL', async () => {
  await call('GET', PAGE);
  const b = (await call('GET', `${ALL}/b`)).json;
  b.spec.template.spec.containers[0].image = 'nginx:2';
  expect((await call('PUT', `${ALL}/b`, b)).status).toBe(200);
  await server().sql(
    `UPDATE objects SET body = jsonb_set(body, '{spec,template,spec,containers,0,image}', '"nginx:3"')
     WHERE resource = 'deployments' AND namespace = $1 AND name = 'c'`,
    [NS],
  );
  const page = (await call('GET', PAGE)).json;
  expect(imageOf(page, 'a')).toBe('nginx:1');
  expect(imageOf(page, 'b')).toBe('nginx:2');
  expect(imageOf(page, 'c')).toBe('nginx:3');
  const one = (await call('GET', `${ALL}/c`)).json;
  expect(page.items[2].metadata).toEqual(one.metadata);
  expect(page.items[2].spec).toEqual(one.spec);
});

it('answers a GET read again with the same text, and with the object as it is now once changed', async () => {
  const first = await call('GET', `${ALL}/e`);
  expect((await call('GET', `${ALL}/e`)).text).toBe(first.text);
  const yaml = await call('GET', `${ALL}/e`, undefined, { accept: 'application/yaml' });
  expect(yaml.text).toContain('name: e');
  await server().sql(`UPDATE objects SET body = jsonb_set(body, '{spec,replicas}', '4') WHERE resource = 'deployments' AND namespace = $1 AND name = 'e'`, [NS]);
  const changed = (await call('GET', `${ALL}/e`)).json;
  expect(changed.spec.replicas).toBe(4);
  expect(changed.metadata.resourceVersion).not.toBe(first.json.metadata.resourceVersion);
  const apps = (await call('GET', `/apis/apps/v1/namespaces/${NS}/deployments/e`)).json;
  expect(apps.apiVersion).toBe('apps/v1');
  expect(apps.spec.revisionHistoryLimit).toBe(2147483647);
  expect((await call('GET', `${ALL}/e`)).json).toEqual(changed);
});

it('leaves deleted objects out and takes new ones in', async () => {
  await call('GET', PAGE);
  expect((await call('DELETE', `${ALL}/a`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' })).status).toBe(200);
  expect((await call('POST', ALL, deployment('aa'))).status).toBe(201);
  expect(names((await call('GET', PAGE)).json)).toEqual(['aa', 'b', 'c']);
});

it('answers each version of a kind in its own form from the same rows', async () => {
  const extensions = (await call('GET', PAGE)).json;
  const apps = (await call('GET', `/apis/apps/v1/namespaces/${NS}/deployments?limit=3`)).json;
  expect(apps.apiVersion).toBe('apps/v1');
  expect(apps.items.map((item: any) => item.metadata.resourceVersion)).toEqual(extensions.items.map((item: any) => item.metadata.resourceVersion));
  expect(apps.items[0].spec.revisionHistoryLimit).toBe(2147483647);
  expect(extensions.items[0].spec.revisionHistoryLimit).toBeUndefined();
  expect(itemsText((await call('GET', PAGE)).text)).toBe(JSON.stringify(extensions.items));
});

it("sends a watch's initial events again as they were, and as they are once changed", async () => {
  const first = eventsOf((await call('GET', WATCH)).text);
  const again = eventsOf((await call('GET', WATCH)).text);
  expect(again).toEqual(first);
  expect(first.map((event: any) => event.type)).toEqual(first.map(() => 'ADDED'));
  const d = (await call('GET', `${ALL}/d`)).json;
  d.metadata.labels.changed = 'yes';
  expect((await call('PUT', `${ALL}/d`, d)).status).toBe(200);
  const changed = eventsOf((await call('GET', WATCH)).text).find((event: any) => event.object.metadata.name === 'd');
  expect(changed.object.metadata.labels.changed).toBe('yes');
  expect(changed.object.kind).toBe('Deployment');
});

it("sends a watch's initial events of large objects whole, however much a batch of them weighs", async () => {
  const configMaps = `/api/v1/namespaces/${NS}/configmaps`;
  const data = { blob: 'x'.repeat(150 * 1024) };
  for (let i = 0; i < 100; i++) expect((await call('POST', configMaps, { metadata: { name: `large-${i}` }, data })).status).toBe(201);
  // a client that reads nothing for a while, as a slow one: the server must wait for it rather than drop it, and
  // then go on watching
  const watched = slowlyRead(`${server().url}${configMaps}?watch=1&timeoutSeconds=4`, 1500);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect((await call('POST', configMaps, { metadata: { name: 'late' } })).status).toBe(201);
  const events = eventsOf(await watched);
  expect(events.filter((event: any) => event.type === 'ADDED' && event.object.data?.blob === data.blob)).toHaveLength(100);
  expect(events.at(-1)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'late' } } });
});

it('keeps trusting a resourceVersion: a body changed behind the triggers keeps being answered as it was', async () => {
  // the contract SQL repairs keep (the triggers keep it for them): a row's body changes with its resourceVersion
  const before = (await call('GET', PAGE)).json;
  await server().sql(
    `BEGIN; SET LOCAL session_replication_role = replica;
     UPDATE objects SET body = jsonb_set(body, '{spec,replicas}', '7') WHERE resource = 'deployments' AND namespace = '${NS}' AND name = 'b';
     COMMIT`,
  );
  const after = (await call('GET', PAGE)).json;
  expect(after.items[1].metadata.resourceVersion).toBe(before.items[1].metadata.resourceVersion);
  expect(after.items[1].spec.replicas).toBe(before.items[1].spec.replicas);
  expect((await call('GET', `${ALL}/b`)).json.spec.replicas).toBe(before.items[1].spec.replicas);
  // a list that told its statement nothing (another page size) reads the row's texts, and still answers what is kept
  const other = (await call('GET', `${ALL}?limit=4`)).json;
  expect(other.items[1].spec.replicas).toBe(before.items[1].spec.replicas);
});
