import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { useTestServer } from './support/api';
import { dbState } from './support/db-state';
import { HttpResult } from './support/http';
import { KINDS } from './support/kinds';
import { expectFailure } from './support/status';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

/**
 * Every (method, path shape) of the two API groups' contract: the ones it lists answer as they should, every other
 * one is a 405 (the path is served, not with that method) or a 404 (no such path) Status that changes nothing.
 */
const NS = 'matrix';
// what the tests' own requests wrote is compared with the whole database: no controller writes besides
const { call, server } = useTestServer([NS], WITHOUT_DEPLOYMENT_CONTROLLER);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type Shape =
  | 'all' // /{plural}
  | 'namespace' // /namespaces/{namespace}/{plural}
  | 'item' // /{plural}/{name}
  | 'namespacedItem' // /namespaces/{namespace}/{plural}/{name}
  | 'watchAll' // /watch/{plural}
  | 'watchNamespace' // /watch/namespaces/{namespace}/{plural}
  | 'watchItem' // /watch/{plural}/{name}
  | 'watchNamespacedItem' // /watch/namespaces/{namespace}/{plural}/{name}
  | `${'item' | 'namespacedItem' | 'watchNamespacedItem'}/${'status' | 'scale' | 'rollback'}`;

const SHAPES: Shape[] = [
  'all', 'namespace', 'item', 'namespacedItem', 'watchAll', 'watchNamespace', 'watchItem', 'watchNamespacedItem',
  'item/status', 'item/scale', 'item/rollback', 'namespacedItem/status', 'namespacedItem/scale', 'namespacedItem/rollback',
  'watchNamespacedItem/status',
];

/** What the contract lists, per resource: each served shape and its methods. */
type Served = Partial<Record<Shape, Method[]>>;
const NAMESPACED_KIND: Served = {
  all: ['GET'],
  namespace: ['GET', 'DELETE', 'POST'],
  namespacedItem: ['GET', 'PUT', 'DELETE', 'PATCH'],
  watchAll: ['GET'],
  watchNamespace: ['GET'],
  watchNamespacedItem: ['GET'],
};
const CLUSTER_KIND: Served = {
  all: ['GET', 'DELETE', 'POST'],
  item: ['GET', 'PUT', 'DELETE', 'PATCH'],
  watchAll: ['GET'],
  watchItem: ['GET'],
};
const STATUS: Served = { 'namespacedItem/status': ['GET', 'PUT', 'PATCH'] };
const SCALE: Served = { 'namespacedItem/scale': ['GET', 'PUT', 'PATCH'] };

interface Resource {
  group: 'extensions' | 'federation';
  plural: string;
  served: Served;
  /** the object the resource's paths address (for the scale view of replication controllers: a core one) */
  object?: { collection: string; manifest: any };
}

const rc = load(readFileSync(join(__dirname, 'fixtures', 'replicationcontroller.yaml'), 'utf8')) as any;
const NAME = 'm';

const RESOURCES: Resource[] = [
  { group: 'extensions', plural: 'daemonsets', served: { ...NAMESPACED_KIND, ...STATUS } },
  {
    group: 'extensions',
    plural: 'deployments',
    served: { ...NAMESPACED_KIND, ...STATUS, ...SCALE, 'namespacedItem/rollback': ['POST'] },
  },
  { group: 'extensions', plural: 'ingresses', served: { ...NAMESPACED_KIND, ...STATUS } },
  { group: 'extensions', plural: 'networkpolicies', served: NAMESPACED_KIND },
  { group: 'extensions', plural: 'replicasets', served: { ...NAMESPACED_KIND, ...STATUS, ...SCALE } },
  { group: 'extensions', plural: 'podsecuritypolicies', served: CLUSTER_KIND },
  { group: 'extensions', plural: 'thirdpartyresources', served: CLUSTER_KIND },
  {
    group: 'extensions',
    plural: 'replicationcontrollers',
    served: SCALE,
    object: { collection: `/api/v1/namespaces/${NS}/replicationcontrollers`, manifest: { ...rc, metadata: { ...rc.metadata, name: NAME } } },
  },
  { group: 'federation', plural: 'clusters', served: { ...CLUSTER_KIND, 'item/status': ['PUT'] } },
];

/** The fixture row of a kind by its plural. */
const kindOf = (plural: string) => KINDS.find((k) => k.resource === plural) as (typeof KINDS)[number];

/** A name valid for every kind (a ThirdPartyResource's is `kind-name.domain`). */
const objectName = (r: Resource) => (r.plural === 'thirdpartyresources' ? 'mat-rix.example.com' : NAME);

function pathOf(r: Resource, shape: Shape): string {
  const root = `/apis/${r.group}/v1beta1`;
  const name = objectName(r);
  const [base, sub] = shape.split('/') as [string, string | undefined];
  const paths: Record<string, string> = {
    all: `${root}/${r.plural}`,
    namespace: `${root}/namespaces/${NS}/${r.plural}`,
    item: `${root}/${r.plural}/${name}`,
    namespacedItem: `${root}/namespaces/${NS}/${r.plural}/${name}`,
    watchAll: `${root}/watch/${r.plural}`,
    watchNamespace: `${root}/watch/namespaces/${NS}/${r.plural}`,
    watchItem: `${root}/watch/${r.plural}/${name}`,
    watchNamespacedItem: `${root}/watch/namespaces/${NS}/${r.plural}/${name}`,
  };
  return sub ? `${paths[base]}/${sub}` : paths[base];
}

/** Where the resource's object is created and what it is. */
function objectOf(r: Resource): { collection: string; manifest: any } {
  if (r.object) return r.object;
  const manifest = structuredClone(kindOf(r.plural).manifest);
  manifest.metadata = { ...manifest.metadata, name: objectName(r) };
  return { collection: pathOf(r, r.served.namespace ? 'namespace' : 'all'), manifest };
}

/** Puts the resource's object back as it was made, whatever a previous case did to it. */
async function resetObject(r: Resource): Promise<void> {
  const { collection, manifest } = objectOf(r);
  await call('DELETE', `${collection}/${manifest.metadata.name}`, { propagationPolicy: 'Background' });
  const created = await call('POST', collection, manifest);
  expect(created.status).toBe(201);
}

const merge = { 'content-type': 'application/merge-patch+json' };

/** The request a listed (method, shape) is exercised with, and the code it must answer. */
async function exercise(r: Resource, shape: Shape, method: Method): Promise<void> {
  const path = pathOf(r, shape);
  const [, sub] = shape.split('/');
  if (method === 'GET' && shape.startsWith('watch')) {
    const watch = await WatchClient.open(server().url, path);
    try {
      expect(watch.status).toBe(200);
      if (shape !== 'watchAll' && shape !== 'watchNamespace') return;
      const [event] = await watch.count(1);
      expect(event.type).toBe('ADDED');
    } finally {
      watch.close();
    }
    return;
  }
  const collection = shape === 'all' || shape === 'namespace';
  let response: HttpResult;
  let code = 200;
  if (method === 'GET') {
    response = await call('GET', path);
    const expectedKind = sub === 'scale' ? 'Scale' : `${kindOf(r.plural).kind}${collection ? 'List' : ''}`;
    expect(response.json?.kind).toBe(expectedKind);
  } else if (method === 'POST' && sub === 'rollback') {
    response = await call('POST', path, { name: objectName(r), rollbackTo: {} });
    code = 201;
  } else if (method === 'POST') {
    const { manifest } = objectOf(r);
    response = await call('POST', path, { ...manifest, metadata: { ...manifest.metadata, name: `made-${objectName(r)}` } });
    code = 201;
  } else if (method === 'PUT') {
    response = await call('PUT', path, (await call('GET', sub === 'scale' ? path : pathOf(r, shape.split('/')[0] as Shape))).json);
  } else if (method === 'PATCH') {
    response = await call('PATCH', path, sub === 'scale' ? { spec: { replicas: 1 } } : { metadata: { labels: { patched: 'yes' } } }, merge);
  } else {
    response = await call('DELETE', path, { propagationPolicy: 'Background' });
  }
  expect({ path, method, status: response.status, body: response.status === code ? '' : response.text }).toEqual({
    path,
    method,
    status: code,
    body: '',
  });
}

const cases = RESOURCES.flatMap((r) =>
  SHAPES.flatMap((shape) =>
    METHODS.map((method) => {
      const listed = r.served[shape];
      const outcome = listed?.includes(method) ? 'served' : listed ? 405 : 404;
      return { r, shape, method, outcome, title: `${method} ${pathOf(r, shape)}` };
    }),
  ),
);

describe.each(RESOURCES.map((r) => ({ r, plural: `${r.group}/${r.plural}` })))('$plural', ({ r }) => {
  beforeEach(() => resetObject(r));

  const mine = cases.filter((c) => c.r === r);
  it.each(mine.filter((c) => c.outcome === 'served'))('$title is served', async ({ shape, method }) => {
    await exercise(r, shape, method);
  });

  it.each(mine.filter((c) => c.outcome !== 'served'))('$title answers $outcome and changes nothing', async ({ shape, method, outcome }) => {
    const before = await dbState(server());
    const { manifest } = objectOf(r);
    const body = method === 'GET' ? undefined : method === 'PATCH' ? { metadata: { labels: { x: 'y' } } } : manifest;
    const response = await call(method, pathOf(r, shape), body, method === 'PATCH' ? merge : undefined);
    const reason = outcome === 405 ? 'MethodNotAllowed' : 'NotFound';
    expectFailure(response, outcome as number, reason);
    expect(response.json.details?.name).toBeUndefined();
    expect(await dbState(server())).toEqual(before);
  });
});
