import { KubeConfig, NetworkingV1Api, PatchUtils, V1Ingress, V1NetworkPolicy } from '@kubernetes/client-node';
import { useTestServer } from './support/api';
import { viewColumns } from './support/operator-views';
import { WatchClient } from './support/watch-client';
import { PROTOBUF, protocDecode, unwrap } from './support/protobuf';

const { call, server } = useTestServer(['net']);
const EXT = '/apis/extensions/v1beta1/namespaces/net/ingresses';
const V1 = '/apis/networking.k8s.io/v1/namespaces/net/ingresses';
const EXT_NETPOL = '/apis/extensions/v1beta1/namespaces/net/networkpolicies';
const V1_NETPOL = '/apis/networking.k8s.io/v1/namespaces/net/networkpolicies';
const CLASSES = '/apis/networking.k8s.io/v1/ingressclasses';
const EXT_PSP = '/apis/extensions/v1beta1/podsecuritypolicies';
const POLICY_PSP = '/apis/policy/v1beta1/podsecuritypolicies';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

const extIngress = (name: string) => ({
  apiVersion: 'extensions/v1beta1',
  kind: 'Ingress',
  metadata: { name, labels: { app: 'web' } },
  spec: {
    backend: { serviceName: 'default-http', servicePort: 80 },
    rules: [{ host: 'web.example.com', http: { paths: [{ path: '/api', backend: { serviceName: 'api', servicePort: 'http' } }] } }],
  },
});

const v1Ingress = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name },
  spec: {
    ingressClassName: 'nginx',
    rules: [
      {
        host: 'shop.example.com',
        http: {
          paths: [
            { path: '/', pathType: 'Prefix', backend: { service: { name: 'shop', port: { number: 8080 } } } },
            { path: '/static', pathType: 'ImplementationSpecific', backend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'assets' } } },
          ],
        },
      },
    ],
    tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
    ...extra,
  },
});

describe('networking.k8s.io/v1 and policy/v1beta1 over the extensions/v1beta1 objects', () => {
  afterEach(async () => {
    await call('DELETE', EXT);
    await call('DELETE', EXT_NETPOL);
    await call('DELETE', CLASSES);
    await call('DELETE', EXT_PSP);
  });

  it('serves the groups in discovery after extensions, with upstream’s preferred versions', async () => {
    const groups = (await call('GET', '/apis')).json.groups;
    const names = groups.map((g: any) => g.name);
    expect(names.indexOf('extensions')).toBeLessThan(names.indexOf('networking.k8s.io'));
    expect(names.indexOf('extensions')).toBeLessThan(names.indexOf('policy'));
    expect(groups.find((g: any) => g.name === 'networking.k8s.io').preferredVersion).toEqual({ groupVersion: 'networking.k8s.io/v1', version: 'v1' });
    expect(groups.find((g: any) => g.name === 'policy').preferredVersion).toEqual({ groupVersion: 'policy/v1beta1', version: 'v1beta1' });
    const resources = (await call('GET', '/apis/networking.k8s.io/v1')).json.resources;
    expect(resources.map((r: any) => r.name)).toEqual(['ingressclasses', 'ingresses', 'ingresses/status', 'networkpolicies']);
    expect(resources.find((r: any) => r.name === 'ingressclasses')).toMatchObject({ kind: 'IngressClass', namespaced: false });
    const policy = (await call('GET', '/apis/policy/v1beta1')).json.resources;
    expect(policy).toEqual([expect.objectContaining({ name: 'podsecuritypolicies', kind: 'PodSecurityPolicy', namespaced: false })]);
  });

  it('reads an Ingress created through extensions/v1beta1 as networking.k8s.io/v1, the same object', async () => {
    const created = await call('POST', EXT, extIngress('web'));
    expect(created.status).toBe(201);
    const read = await call('GET', `${V1}/web`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { uid: created.json.metadata.uid, resourceVersion: created.json.metadata.resourceVersion, labels: { app: 'web' }, selfLink: `${V1}/web` },
      spec: {
        defaultBackend: { service: { name: 'default-http', port: { number: 80 } } },
        rules: [{ host: 'web.example.com', http: { paths: [{ path: '/api', pathType: 'ImplementationSpecific', backend: { service: { name: 'api', port: { name: 'http' } } } }] } }],
      },
    });
    expect(read.json.spec).not.toHaveProperty('backend');
    // extensions/v1beta1 still serves what it stored, as 1.7 did
    expect((await call('GET', `${EXT}/web`)).json.spec).toEqual(created.json.spec);
  });

  it('keeps every networking.k8s.io/v1 field through extensions/v1beta1 reads and back', async () => {
    const created = await call('POST', V1, v1Ingress('shop'));
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual(v1Ingress('shop').spec);
    const ext = await call('GET', `${EXT}/shop`);
    expect(ext.json.spec.rules[0].http.paths[0]).toEqual({ path: '/', pathType: 'Prefix', backend: { serviceName: 'shop', servicePort: 8080 } });
    expect(ext.json.spec.ingressClassName).toBe('nginx');
    const list = await call('GET', V1);
    expect(list.json).toMatchObject({ kind: 'IngressList', apiVersion: 'networking.k8s.io/v1' });
    expect(list.json.items[0].spec).toEqual(created.json.spec);
  });

  it('patches, applies and writes the status through networking.k8s.io/v1', async () => {
    await call('POST', EXT, extIngress('web'));
    const patched = await call('PATCH', `${V1}/web`, { spec: { ingressClassName: 'nginx' }, metadata: { labels: { patched: 'yes' } } }, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.json.spec.ingressClassName).toBe('nginx');
    const ext = await call('GET', `${EXT}/web`);
    expect(ext.json.metadata).toMatchObject({ labels: { app: 'web', patched: 'yes' }, resourceVersion: patched.json.metadata.resourceVersion });

    const applied = await call('PATCH', `${V1}/applied?fieldManager=ops`, JSON.stringify(v1Ingress('applied')), APPLY);
    expect(applied.status).toBe(201);
    expect(applied.json.metadata.managedFields[0]).toMatchObject({ manager: 'ops', operation: 'Apply', apiVersion: 'networking.k8s.io/v1' });
    expect(applied.json.metadata.managedFields[0].fieldsV1).toHaveProperty(['f:spec', 'f:ingressClassName']);
    const again = await call('PATCH', `${V1}/applied?fieldManager=ops`, JSON.stringify(v1Ingress('applied', { ingressClassName: 'traefik' })), APPLY);
    expect(again.status).toBe(200);
    expect((await call('GET', `${EXT}/applied`)).json.spec.ingressClassName).toBe('traefik');

    const status = { loadBalancer: { ingress: [{ ip: '10.0.0.1', ports: [{ port: 443, protocol: 'TCP' }] }] } };
    const written = await call('PUT', `${V1}/applied/status`, { ...again.json, status });
    expect(written.status).toBe(200);
    expect(written.json.status).toEqual(status);
    const table = await call('GET', V1, undefined, TABLE);
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    const row = table.json.rows.find((r: any) => r.cells[0] === 'applied');
    expect(row.cells.slice(0, 5)).toEqual(['applied', 'traefik', 'shop.example.com', '10.0.0.1', '80, 443']);
  });

  it('compares a server-side apply with the managers of the other version in their version', async () => {
    const legacy = { ...extIngress('owned'), metadata: { name: 'owned' } };
    expect((await call('PATCH', `${EXT}/owned?fieldManager=legacy`, JSON.stringify(legacy), APPLY)).status).toBe(201);
    // the same rules, as networking.k8s.io/v1 reads them
    const rules = [{ host: 'web.example.com', http: { paths: [{ path: '/api', pathType: 'ImplementationSpecific', backend: { service: { name: 'api', port: { name: 'http' } } } }] } }];
    const moved = { ...v1Ingress('owned'), spec: { defaultBackend: { service: { name: 'other-http', port: { number: 80 } } }, rules } };
    const conflict = await call('PATCH', `${V1}/owned?fieldManager=chart`, JSON.stringify(moved), APPLY);
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "legacy": .spec.backend.serviceName');
    const forced = await call('PATCH', `${V1}/owned?fieldManager=chart&force=true`, JSON.stringify(moved), APPLY);
    expect(forced.status).toBe(200);
    const managers = Object.fromEntries(forced.json.metadata.managedFields.map((e: any) => [e.manager, e]));
    expect(managers.chart).toMatchObject({ apiVersion: 'networking.k8s.io/v1', fieldsV1: { 'f:spec': { 'f:defaultBackend': { 'f:service': { 'f:name': {} } } } } });
    expect(managers.legacy).toMatchObject({ apiVersion: 'extensions/v1beta1', fieldsV1: { 'f:spec': { 'f:backend': { 'f:servicePort': {} } } } });
    expect(managers.legacy.fieldsV1['f:spec']['f:backend']).not.toHaveProperty('f:serviceName');
    expect((await call('GET', `${EXT}/owned`)).json.spec.backend).toEqual({ serviceName: 'other-http', servicePort: 80 });
  });

  it('writes networking.k8s.io/v1 objects and lists in protobuf as upstream’s messages, which protoc decodes', async () => {
    await call('POST', V1, v1Ingress('shop'));
    const one = await call('GET', `${V1}/shop`, undefined, { accept: PROTOBUF });
    expect(one.headers.get('content-type')).toBe(PROTOBUF);
    const { typeMeta, raw } = unwrap(one.bytes);
    expect(typeMeta).toBe('apiVersion: "networking.k8s.io/v1"\nkind: "Ingress"\n');
    const text = protocDecode('k8s.io.api.networking.v1.Ingress', raw);
    expect(text).toContain('ingressClassName: "nginx"');
    expect(text).toMatch(/path: "\/"\n\s+backend \{\n\s+service \{\n\s+name: "shop"\n\s+port \{\n\s+number: 8080\n\s+\}\n\s+\}\n\s+\}\n\s+pathType: "Prefix"/);
    const list = await call('GET', V1, undefined, { accept: PROTOBUF });
    expect(protocDecode('k8s.io.api.networking.v1.IngressList', unwrap(list.bytes).raw)).toContain('name: "shop"');
  });

  it('sends writes through extensions/v1beta1 to networking.k8s.io/v1 watchers', async () => {
    const start = (await call('GET', V1)).json.metadata.resourceVersion;
    const watch = await WatchClient.open(server().url, `${V1}?watch=1&resourceVersion=${start}`);
    try {
      await call('POST', EXT, extIngress('watched'));
      await call('DELETE', `${EXT}/watched`);
      await watch.count(2);
      expect(watch.summary()).toEqual(['ADDED watched', 'DELETED watched']);
      expect(watch.events[0].object).toMatchObject({ apiVersion: 'networking.k8s.io/v1', spec: { defaultBackend: { service: { name: 'default-http' } } } });
    } finally {
      watch.close();
    }
  });

  it('validates an Ingress as networking.k8s.io/v1 does', async () => {
    const missingType = v1Ingress('bad', { rules: [{ http: { paths: [{ path: '/', backend: { service: { name: 's', port: { number: 80 } } } }] } }] });
    const refused = await call('POST', V1, missingType);
    expect(refused.status).toBe(422);
    expect(refused.json.details.causes).toContainEqual(expect.objectContaining({ field: 'spec.rules[0].http.paths[0].pathType', reason: 'FieldValueRequired' }));
    const relative = v1Ingress('bad', { rules: [{ http: { paths: [{ path: 'relative', pathType: 'Prefix', backend: { service: { name: 's', port: {} } } }] } }] });
    const causes = (await call('POST', V1, relative)).json.details.causes.map((c: any) => c.field);
    expect(causes).toEqual(['spec.rules[0].http.paths[0].path', 'spec.rules[0].http.paths[0].backend.service.port']);
    const noBackend = await call('POST', V1, { ...v1Ingress('bad'), spec: {} });
    expect(noBackend.json.details.causes).toEqual([expect.objectContaining({ field: 'spec', message: expect.stringContaining('either `defaultBackend` or `rules` must be specified') })]);
  });

  it('works with @kubernetes/client-node’s NetworkingV1Api: creates, reads, lists and patches Ingresses and NetworkPolicies', async () => {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'pgkube', server: server().url, skipTLSVerify: true }],
      users: [{ name: 'tester' }],
      contexts: [{ name: 'test', cluster: 'pgkube', user: 'tester' }],
      currentContext: 'test',
    });
    const api = config.makeApiClient(NetworkingV1Api);
    const strategic = { headers: { 'Content-type': PatchUtils.PATCH_FORMAT_STRATEGIC_MERGE_PATCH } };
    const created = await api.createNamespacedIngress('net', v1Ingress('client') as V1Ingress);
    expect(created.body.spec?.rules?.[0].http?.paths[0]).toEqual({ path: '/', pathType: 'Prefix', backend: { service: { name: 'shop', port: { number: 8080 } } } });
    const read = await api.readNamespacedIngress('client', 'net');
    expect(read.body.metadata?.uid).toBe(created.body.metadata?.uid);
    expect(read.body.spec?.ingressClassName).toBe('nginx');
    await call('POST', EXT, extIngress('from-ext'));
    const list = await api.listNamespacedIngress('net');
    expect(list.body.items.map((i) => i.metadata?.name)).toEqual(['client', 'from-ext']);
    expect(list.body.items[1].spec?.defaultBackend).toEqual({ service: { name: 'default-http', port: { number: 80 } } });
    const defaultBackend = { service: { name: 'fallback', port: { name: 'http' } } };
    const patched = await api.patchNamespacedIngress('client', 'net', { spec: { defaultBackend } }, undefined, undefined, undefined, undefined, undefined, strategic);
    expect(patched.body.spec?.defaultBackend).toEqual(defaultBackend);
    expect((await call('GET', `${EXT}/client`)).json.spec.backend).toEqual({ serviceName: 'fallback', servicePort: 'http' });

    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'client' },
      spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ ports: [{ port: 8080 }] }] },
    };
    const createdPolicy = await api.createNamespacedNetworkPolicy('net', policy as V1NetworkPolicy);
    expect(createdPolicy.body.spec).toEqual({ ...policy.spec, ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }], policyTypes: ['Ingress'] });
    expect((await api.readNamespacedNetworkPolicy('client', 'net')).body.metadata?.uid).toBe(createdPolicy.body.metadata?.uid);
    const egress = [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }];
    const patchedPolicy = await api.patchNamespacedNetworkPolicy('client', 'net', { spec: { egress, policyTypes: ['Ingress', 'Egress'] } }, undefined, undefined, undefined, undefined, undefined, strategic);
    expect(patchedPolicy.body.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect((await call('GET', `${EXT_NETPOL}/client`)).json.spec.egress).toEqual(egress);
    const policies = await api.listNamespacedNetworkPolicy('net');
    expect(policies.body).toMatchObject({ kind: 'NetworkPolicyList', items: [{ metadata: { name: 'client' } }] });
  });

  it('serves IngressClasses as a cluster-scoped kind of their own', async () => {
    const ingressClass = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
      spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external' } },
    };
    const created = await call('POST', CLASSES, ingressClass);
    expect(created.status).toBe(201);
    expect(created.json.spec.parameters.scope).toBe('Cluster');
    expect(created.json.metadata.selfLink).toBe(`${CLASSES}/nginx`);
    const table = await call('GET', CLASSES, undefined, TABLE);
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Controller', 'Parameters', 'Age']);
    expect(table.json.rows[0].cells.slice(0, 3)).toEqual(['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/external']);
    const changed = await call('PATCH', `${CLASSES}/nginx`, { spec: { controller: 'example.com/other' } }, MERGE);
    expect(changed.status).toBe(422);
    expect(changed.json.details.causes).toEqual([expect.objectContaining({ field: 'spec.controller', message: expect.stringContaining('field is immutable') })]);
    const bad = await call('POST', CLASSES, { ...ingressClass, metadata: { name: 'bad' }, spec: { controller: 'no-domain' } });
    expect(bad.status).toBe(422);
    expect((await call('GET', `${CLASSES}?fieldSelector=metadata.name%3Dnginx`)).json.items).toHaveLength(1);
    const rows = await server().sql(`SELECT controller, parameters_kind, parameters_name, is_default FROM kube.ingressclasses WHERE name = 'nginx'`);
    expect(rows).toEqual([{ controller: 'k8s.io/ingress-nginx', parameters_kind: 'IngressParameters', parameters_name: 'external', is_default: true }]);
    await call('POST', V1, v1Ingress('classy'));
    expect(await server().sql(`SELECT class FROM kube.ingresses WHERE name = 'classy'`)).toEqual([{ class: 'nginx' }]);
    // the one default class is given to a networking.k8s.io/v1 Ingress created without one, not to an extensions one
    const { ingressClassName: _, ...classless } = v1Ingress('classless').spec;
    expect((await call('POST', V1, { ...v1Ingress('classless'), spec: classless })).json.spec.ingressClassName).toBe('nginx');
    expect((await call('POST', EXT, extIngress('legacy'))).json.spec).not.toHaveProperty('ingressClassName');
    // of two default classes, the newer; of two made in the same second, the first by name
    const second = await call('POST', CLASSES, { ...ingressClass, metadata: { name: 'second', annotations: ingressClass.metadata.annotations } });
    const newest = second.json.metadata.creationTimestamp > created.json.metadata.creationTimestamp ? 'second' : 'nginx';
    const { ingressClassName: __, ...twoDefaults } = v1Ingress('two-defaults').spec;
    expect((await call('POST', V1, { ...v1Ingress('two-defaults'), spec: twoDefaults })).json.spec.ingressClassName).toBe(newest);
    expect((await call('DELETE', `${CLASSES}/second`)).status).toBe(200);
    expect((await call('DELETE', `${CLASSES}/nginx`)).status).toBe(200);
    expect((await call('GET', `${CLASSES}/nginx`)).status).toBe(404);
  });

  it('defaults a networking.k8s.io/v1 NetworkPolicy and keeps its later fields in the stored object', async () => {
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'db' },
      spec: {
        podSelector: { matchLabels: { app: 'db' } },
        ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 5432 }] }],
        egress: [{ to: [{ namespaceSelector: {}, podSelector: { matchLabels: { app: 'dns' } } }], ports: [{ protocol: 'UDP', port: 53, endPort: 54 }] }],
      },
    };
    const created = await call('POST', V1_NETPOL, policy);
    expect(created.status).toBe(201);
    expect(created.json.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(created.json.spec.ingress[0].ports).toEqual([{ protocol: 'TCP', port: 5432 }]);
    const ext = await call('GET', `${EXT_NETPOL}/db`);
    expect(ext.json).toMatchObject({ apiVersion: 'extensions/v1beta1', metadata: { uid: created.json.metadata.uid } });
    expect(ext.json.spec.egress).toEqual(created.json.spec.egress);
    // networking.k8s.io/v1 lets the spec change, extensions/v1beta1 (as 1.7) does not
    expect((await call('PATCH', `${V1_NETPOL}/db`, { spec: { policyTypes: ['Egress'] } }, MERGE)).status).toBe(200);
    expect((await call('PATCH', `${EXT_NETPOL}/db`, { spec: { podSelector: {} } }, MERGE)).status).toBe(422);
    // a policy created through extensions/v1beta1 gets no networking.k8s.io/v1 defaults
    await call('POST', EXT_NETPOL, { metadata: { name: 'old' }, spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] } });
    expect((await call('GET', `${V1_NETPOL}/old`)).json.spec).toEqual({ podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] });
    const bad = await call('POST', V1_NETPOL, { ...policy, metadata: { name: 'bad' }, spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] } });
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual([expect.objectContaining({ field: 'spec.ingress[0].from[0]', message: expect.stringContaining('may not specify both ipBlock and another peer') })]);
  });

  it('serves PodSecurityPolicies as policy/v1beta1 with the fields of later releases', async () => {
    const psp = {
      apiVersion: 'policy/v1beta1',
      kind: 'PodSecurityPolicy',
      metadata: { name: 'restricted' },
      spec: {
        allowPrivilegeEscalation: false,
        requiredDropCapabilities: ['ALL'],
        volumes: ['configMap', 'csi', 'ephemeral', 'secret'],
        allowedHostPaths: [{ pathPrefix: '/var/log', readOnly: true }],
        seLinux: { rule: 'RunAsAny' },
        runAsUser: { rule: 'MustRunAsNonRoot' },
        supplementalGroups: { rule: 'MustRunAs', ranges: [{ min: 1, max: 65535 }] },
        fsGroup: { rule: 'MustRunAs', ranges: [{ min: 1, max: 65535 }] },
      },
    };
    const created = await call('POST', POLICY_PSP, psp);
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual(psp.spec);
    const ext = await call('GET', `${EXT_PSP}/restricted`);
    expect(ext.json).toMatchObject({ apiVersion: 'extensions/v1beta1', metadata: { uid: created.json.metadata.uid }, spec: { allowPrivilegeEscalation: false } });
    // the volume types of later releases are policy/v1beta1's; extensions/v1beta1 keeps 1.7's
    const legacy = await call('POST', EXT_PSP, { ...psp, apiVersion: 'extensions/v1beta1', metadata: { name: 'legacy' } });
    expect(legacy.status).toBe(422);
    expect(legacy.json.details.causes.map((c: any) => c.field)).toEqual(['spec.volumes', 'spec.volumes']);
    const list = await call('GET', POLICY_PSP);
    expect(list.json).toMatchObject({ kind: 'PodSecurityPolicyList', apiVersion: 'policy/v1beta1', items: [{ metadata: { name: 'restricted' } }] });
  });

  it('shows the same columns in kube.ingresses, kube.networkpolicies and kube.podsecuritypolicies whichever version wrote the object', async () => {
    const rule = (backend: object) => ({ host: 'web.example.com', http: { paths: [{ path: '/api', pathType: 'Prefix', backend }] } });
    const tls = [{ hosts: ['web.example.com'], secretName: 'web-tls' }];
    const policySpec = { podSelector: { matchLabels: { app: 'db' } }, ingress: [{ ports: [{ protocol: 'TCP', port: 5432 }] }] };
    const pspSpec = { seLinux: { rule: 'RunAsAny' }, runAsUser: { rule: 'MustRunAsNonRoot' }, supplementalGroups: { rule: 'RunAsAny' }, fsGroup: { rule: 'RunAsAny' }, volumes: ['secret'] };
    const pairs = [
      {
        view: 'ingresses',
        ext: { path: EXT, spec: { backend: { serviceName: 'default-http', servicePort: 80 }, rules: [rule({ serviceName: 'api', servicePort: 'http' })], tls } },
        other: {
          path: V1,
          spec: {
            ingressClassName: 'nginx',
            defaultBackend: { service: { name: 'default-http', port: { number: 80 } } },
            rules: [rule({ service: { name: 'api', port: { name: 'http' } } })],
            tls,
          },
        },
        extAnnotations: { 'kubernetes.io/ingress.class': 'nginx' },
      },
      { view: 'networkpolicies', ext: { path: EXT_NETPOL, spec: policySpec }, other: { path: V1_NETPOL, spec: policySpec } },
      { view: 'podsecuritypolicies', ext: { path: EXT_PSP, spec: pspSpec }, other: { path: POLICY_PSP, spec: pspSpec } },
    ];
    const row = (view: string, name: string) => viewColumns(server(), view, name);
    for (const { view, ext, other, extAnnotations } of pairs) {
      const extMetadata = { name: `${view}-ext`, labels: { app: 'view' }, annotations: extAnnotations };
      expect((await call('POST', ext.path, { metadata: extMetadata, spec: ext.spec })).status).toBe(201);
      expect((await call('POST', other.path, { metadata: { name: `${view}-other`, labels: { app: 'view' } }, spec: other.spec })).status).toBe(201);
      expect(await row(view, `${view}-other`)).toEqual(await row(view, `${view}-ext`));
    }
    expect(await row('ingresses', 'ingresses-other')).toMatchObject({ hosts: ['web.example.com'], paths: ['/api'], services: ['api', 'default-http'], tls_hosts: ['web.example.com'], class: 'nginx' });
    expect(await row('networkpolicies', 'networkpolicies-other')).toMatchObject({ pod_selector: { matchLabels: { app: 'db' } }, ingress_rules: 1 });
    expect(await row('podsecuritypolicies', 'podsecuritypolicies-other')).toMatchObject({ run_as_user: 'MustRunAsNonRoot', volumes: ['secret'] });
  });
});
