import { http } from './http';
import { collectionPath, itemPath, KindCase, KINDS } from './kinds';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './test-server';

/** What the PATCH tests share: their server, the patch types, fresh objects, and objects rich in merge lists. */

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC = 'application/strategic-merge-patch+json';

const kind = (resource: string) => KINDS.find((k) => k.resource === resource) as KindCase;
export const DEPLOYMENTS = kind('deployments');
export const CLUSTERS = kind('clusters');
export const TPRS = kind('thirdpartyresources');

/** Starts a server for the calling file; returns how to patch, create and read its objects. */
export function usePatchServer() {
  let server: TestServer;
  beforeAll(async () => {
    // a patch is judged by the exact object and writes it makes: no controller writes besides
    server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
  });
  afterAll(() => server.close());

  const patch = (k: KindCase, name: string, type: string | undefined, body: unknown) =>
    http(server.url, 'PATCH', itemPath(k, name), {
      // a Buffer, so that fetch adds no Content-Type of its own
      body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
      headers: type ? { 'content-type': type } : {},
    });

  let serial = 0;
  /** Creates a fresh object of the kind, from its fixture changed by `change`; returns it as stored. */
  async function create(k: KindCase, change: (manifest: any) => void = () => undefined): Promise<any> {
    const manifest = structuredClone(k.manifest);
    // a name valid for every kind: ThirdPartyResource names need <kind>.<domain>.<tld>, Cluster names a DNS label
    manifest.metadata.name = k.kind === 'ThirdPartyResource' ? `p${++serial}.example.com` : `p${++serial}`;
    change(manifest);
    const created = await http(server.url, 'POST', collectionPath(k), { body: manifest });
    expect(created.status).toBe(201);
    return created.json;
  }

  const get = async (k: KindCase, name: string) => (await http(server.url, 'GET', itemPath(k, name))).json;

  return { patch, create, get, server: () => server };
}

/** Objects with something in every merge list the cases below touch. */
export const richDeployment = (d: any) => {
  d.metadata.annotations = { note: 'kept', other: 'also' };
  d.metadata.finalizers = ['example.com/a', 'example.com/b'];
  d.metadata.ownerReferences = [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-a', uid: 'uid-a' },
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-b', uid: 'uid-b' },
  ];
  d.spec.template.spec.containers = [
    {
      name: 'nginx',
      image: 'nginx:1.13',
      args: ['x', 'y'],
      ports: [{ containerPort: 80 }, { containerPort: 443 }],
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
    },
    { name: 'sidecar', image: 'busybox:1.36' },
  ];
  d.spec.template.spec.volumes = [
    { name: 'data', emptyDir: {} },
    { name: 'cache', emptyDir: {} },
  ];
};

export const podSpec = (spec: unknown) => ({ spec: { template: { spec } } });
/** What the server adds to a container it stores, for an image without a tag. */
export const defaulted = (container: object) => ({
  ...container,
  imagePullPolicy: 'Always',
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
});
export const containers = (d: any) => d.spec.template.spec.containers;
export const names = (items: any[]) => items.map((item) => item.name);
export const nginx = (d: any) => containers(d).find((c: any) => c.name === 'nginx');
