import { collectionPath, itemPath, kindNamed as kind } from './support/kinds';
import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

const { call } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);

async function createAndDelete(kindName: string, manifest: any) {
  const k = kind(kindName);
  const created = await call('POST', collectionPath(k), manifest);
  await call('DELETE', `${itemPath(k, manifest.metadata.name)}?propagationPolicy=Background`);
  return created;
}

const template = (spec: any, labels: Record<string, string> = { app: 'web' }) => ({ metadata: { labels }, spec });

describe('Deployment defaults', () => {
  it('defaults as the 1.7 apiserver', async () => {
    const created = await createAndDelete('Deployment', {
      apiVersion: 'extensions/v1beta1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: template({ containers: [{ name: 'nginx', image: 'nginx:1.13' }] }) },
    });
    expect(created.status).toBe(201);
    expect(created.json.metadata.labels).toEqual({ app: 'web' });
    expect(created.json.metadata.generation).toBe(1);
    expect(created.json.spec).toEqual({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.13',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
    });
    expect(created.json.status).toEqual({});
  });

  it('keeps what the client set, and fills a half-given rolling update', async () => {
    const created = await createAndDelete('Deployment', {
      metadata: { name: 'web', labels: { own: 'label' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        strategy: { rollingUpdate: { maxSurge: '25%' } },
        template: template({ containers: [{ name: 'c', image: 'nginx' }] }, { app: 'web', tier: 'x' }),
      },
    });
    expect(created.json.metadata.labels).toEqual({ own: 'label' });
    expect(created.json.spec.replicas).toBe(0);
    expect(created.json.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(created.json.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } });
  });

  it('gives a Recreate strategy no rolling update', async () => {
    const created = await createAndDelete('Deployment', {
      metadata: { name: 'web' },
      spec: { strategy: { type: 'Recreate' }, template: template({ containers: [{ name: 'c', image: 'nginx' }] }) },
    });
    expect(created.json.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('defaults again on replace: a PUT without labels gets the template labels', async () => {
    const k = kind('Deployment');
    const created = await call('POST', collectionPath(k), k.manifest);
    const body = structuredClone(created.json);
    delete body.metadata.labels;
    delete body.spec.strategy;
    const replaced = await call('PUT', itemPath(k, 'web'), body);
    expect(replaced.json.metadata.labels).toEqual({ app: 'web' });
    expect(replaced.json.spec.strategy).toEqual(created.json.spec.strategy);
    expect(replaced.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    await call('DELETE', `${itemPath(k, 'web')}?propagationPolicy=Background`);
  });
});

describe('pod template defaults', () => {
  const podDefaults = async (podSpec: any) =>
    (await createAndDelete('ReplicaSet', { metadata: { name: 'web-1' }, spec: { template: template(podSpec) } })).json.spec.template.spec;

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['registry:5000/team/nginx', 'Always'],
    ['nginx:1.13', 'IfNotPresent'],
    ['registry:5000/nginx:1.13', 'IfNotPresent'],
    ['nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
  ])('pulls %s with policy %s', async (image, policy) => {
    const spec = await podDefaults({ containers: [{ name: 'c', image }] });
    expect(spec.containers[0].imagePullPolicy).toBe(policy);
  });

  it('defaults ports, env field refs, probes, hooks and init containers', async () => {
    const spec = await podDefaults({
      initContainers: [{ name: 'init', image: 'busybox:1' }],
      containers: [
        {
          name: 'c',
          image: 'nginx:1',
          ports: [{ containerPort: 80 }],
          env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          livenessProbe: { httpGet: { port: 80 } },
          readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 3 },
          lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } } },
        },
      ],
    });
    const container = spec.containers[0];
    expect(container.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(container.env[0].valueFrom.fieldRef).toEqual({ fieldPath: 'metadata.name', apiVersion: 'v1' });
    expect(container.livenessProbe).toEqual({
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(container.readinessProbe).toMatchObject({ periodSeconds: 3, timeoutSeconds: 1 });
    expect(container.lifecycle.preStop.httpGet).toEqual({ port: 80, path: '/stop', scheme: 'HTTP' });
    expect(spec.initContainers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', resources: {} });
  });

  it('copies container ports to host ports on the host network', async () => {
    const spec = await podDefaults({ hostNetwork: true, containers: [{ name: 'c', image: 'nginx:1', ports: [{ containerPort: 8080 }, { containerPort: 9090, hostPort: 9091 }] }] });
    expect(spec.containers[0].ports.map((p: any) => p.hostPort)).toEqual([8080, 9091]);
  });

  it('defaults volumes: an empty source becomes emptyDir, modes and plugin settings are filled', async () => {
    const spec = await podDefaults({
      containers: [{ name: 'c', image: 'nginx:1' }],
      volumes: [
        { name: 'scratch' },
        { name: 'secret', secret: { secretName: 's' } },
        { name: 'config', configMap: { name: 'c', defaultMode: 256 } },
        { name: 'disk', rbd: { monitors: ['m'], image: 'i' } },
        { name: 'azure', azureDisk: { diskName: 'd', diskURI: 'u' } },
      ],
    });
    expect(spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 'secret', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'config', configMap: { name: 'c', defaultMode: 256 } },
      { name: 'disk', rbd: { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } },
      { name: 'azure', azureDisk: { diskName: 'd', diskURI: 'u', cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false } },
    ]);
  });

  it('writes resource quantities in canonical form, rounded up to milli precision', async () => {
    const spec = await podDefaults({
      containers: [{ name: 'c', image: 'nginx:1', resources: { limits: { cpu: '0.5', memory: '1.5Gi' }, requests: { cpu: 0.0001, memory: '1000Mi' } } }],
    });
    expect(spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '1536Mi' }, requests: { cpu: '1m', memory: '1000Mi' } });
  });
});

describe('resource quantities', () => {
  const QUANTITIES: [string | number, string][] = [
    ['0.5', '500m'],
    ['1.5Gi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['0.5Ki', '512'],
    ['1000', '1k'],
    [1000, '1k'],
    ['12e2', '1200'],
    ['1E3', '1e3'],
    ['0.0001', '1m'],
    ['5e-10', '1e-3'],
    ['0', '0'],
    ['1e99999999', '1e99999999'],
    ['1e-99999999', '1e-3'],
  ];

  it('are written in canonical form, rounded up to milli precision, without work that grows with the exponent', async () => {
    const limits = Object.fromEntries(QUANTITIES.map(([quantity], i) => [`example.com/r${i}`, quantity]));
    const started = Date.now();
    const created = await createAndDelete('ReplicaSet', {
      metadata: { name: 'web-1' },
      spec: { template: template({ containers: [{ name: 'c', image: 'nginx:1', resources: { limits } }] }) },
    });
    expect(created.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5000);
    const stored = created.json.spec.template.spec.containers[0].resources.limits;
    expect(QUANTITIES.map((_, i) => stored[`example.com/r${i}`])).toEqual(QUANTITIES.map(([, canonical]) => canonical));
  });

  it('refuses what is not a quantity with 400', async () => {
    const k = kind('ReplicaSet');
    for (const quantity of ['1.5.5', 'ten', '1Ki1', '--1']) {
      const manifest = structuredClone(k.manifest);
      manifest.spec.template.spec.containers[0].resources = { requests: { cpu: quantity } };
      const response = await call('POST', collectionPath(k), manifest);
      expect(response.status).toBe(400);
      expect(response.json.message).toMatch(/cannot be handled as a ReplicaSet: (quantities must match the regular expression|unable to parse quantity's suffix)/);
    }
  });
});

describe('defaults of the other kinds', () => {
  it('ReplicaSet: one replica, selector and labels from the template, status with replicas', async () => {
    const created = await createAndDelete('ReplicaSet', { metadata: { name: 'web-1' }, spec: { template: template({ containers: [{ name: 'c', image: 'nginx:1' }] }) } });
    expect(created.json.spec.replicas).toBe(1);
    expect(created.json.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(created.json.metadata.labels).toEqual({ app: 'web' });
    expect(created.json.status).toEqual({ replicas: 0 });
  });

  it('DaemonSet: OnDelete, ten revisions, templateGeneration 1; a RollingUpdate gets maxUnavailable 1', async () => {
    const created = await createAndDelete('DaemonSet', { metadata: { name: 'agent' }, spec: { template: template({ containers: [{ name: 'c', image: 'nginx:1' }] }) } });
    expect(created.json.spec).toMatchObject({ updateStrategy: { type: 'OnDelete' }, revisionHistoryLimit: 10, templateGeneration: 1, selector: { matchLabels: { app: 'web' } } });
    const rolling = await createAndDelete('DaemonSet', {
      metadata: { name: 'agent' },
      spec: { updateStrategy: { type: 'RollingUpdate' }, templateGeneration: 7, template: template({ containers: [{ name: 'c', image: 'nginx:1' }] }) },
    });
    expect(rolling.json.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } });
    expect(rolling.json.spec.templateGeneration).toBe(7);
  });

  it('NetworkPolicy: an empty podSelector, and no protocol default (a 1.7 bug)', async () => {
    const created = await createAndDelete('NetworkPolicy', { metadata: { name: 'allow-web' }, spec: { ingress: [{ ports: [{ port: 80 }] }] } });
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual({ podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] });
  });

  it('Ingress: a status with an empty load balancer', async () => {
    const created = await createAndDelete('Ingress', kind('Ingress').manifest);
    expect(created.json.status).toEqual({ loadBalancer: {} });
  });
});
