import { KubeObject } from '../../src/apimachinery/meta/kube-object';
import { omitEmpty } from '../../src/apimachinery/schema/omit-empty';
import { STORED_INGRESS } from '../../src/apis/extensions/ingress/ingress.schema';
import { STORED_NETWORK_POLICY } from '../../src/apis/extensions/networkpolicy/networkpolicy.schema';
import { STORED_POD_SECURITY_POLICY } from '../../src/apis/extensions/podsecuritypolicy/podsecuritypolicy.schema';
import { NETWORKING_V1_KINDS } from '../../src/apis/networking/networking.kinds';
import { INGRESS_V1_CONVERSION } from '../../src/apis/networking/ingress/ingress.v1.conversion';
import { POLICY_V1BETA1_KINDS } from '../../src/apis/policy/policy.kinds';
import { StructSchema } from '../../src/apimachinery/schema/schema';
import { VersionConversion } from '../../src/registry/kind-definition';

const STORED_FORM: VersionConversion = { toStored: (o) => o, fromStored: (o) => o };
const conversionOf = (kinds: typeof NETWORKING_V1_KINDS, resource: string) => kinds.find((def) => def.resource === resource)?.conversion as VersionConversion;

const metadata = { name: 'x', namespace: 'default', uid: 'u', resourceVersion: '7', labels: { app: 'web' } };

/** Stored objects with every field the stored form has, and the versions each is served in. */
const CASES: { kind: string; shape: StructSchema; stored: KubeObject; versions: Record<string, VersionConversion> }[] = [
  {
    kind: 'Ingress',
    shape: STORED_INGRESS,
    stored: {
      kind: 'Ingress',
      apiVersion: 'extensions/v1beta1',
      metadata,
      spec: {
        ingressClassName: 'nginx',
        backend: { serviceName: 'default', servicePort: 80 },
        tls: [{ hosts: ['a.example.com'], secretName: 'tls' }],
        rules: [
          {
            host: 'a.example.com',
            http: {
              paths: [
                { path: '/api', pathType: 'Prefix', backend: { serviceName: 'api', servicePort: 'http' } },
                { path: '/exact', pathType: 'Exact', backend: { serviceName: 'api', servicePort: 8080 } },
                { path: '/bucket', pathType: 'ImplementationSpecific', backend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'assets' } } },
              ],
            },
          },
          { host: '*.example.com' },
        ],
      },
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.1', hostname: 'lb.example.com', ports: [{ port: 443, protocol: 'TCP', error: 'Pending' }] }] } },
    },
    versions: { 'extensions/v1beta1': STORED_FORM, 'networking.k8s.io/v1': conversionOf(NETWORKING_V1_KINDS, 'ingresses') },
  },
  {
    kind: 'NetworkPolicy',
    shape: STORED_NETWORK_POLICY,
    stored: {
      kind: 'NetworkPolicy',
      apiVersion: 'extensions/v1beta1',
      metadata,
      spec: {
        podSelector: { matchLabels: { app: 'web' } },
        ingress: [
          {
            ports: [{ protocol: 'TCP', port: 80 }, { protocol: 'UDP', port: 'dns' }, { protocol: 'SCTP', port: 3000, endPort: 3100 }],
            from: [{ podSelector: { matchLabels: { role: 'client' } }, namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] } }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }],
          },
        ],
        egress: [{ ports: [{ protocol: 'TCP', port: 5432 }], to: [{ ipBlock: { cidr: '192.168.0.0/16' } }] }],
        policyTypes: ['Ingress', 'Egress'],
      },
    },
    versions: { 'extensions/v1beta1': STORED_FORM, 'networking.k8s.io/v1': conversionOf(NETWORKING_V1_KINDS, 'networkpolicies') },
  },
  {
    kind: 'PodSecurityPolicy',
    shape: STORED_POD_SECURITY_POLICY,
    stored: {
      kind: 'PodSecurityPolicy',
      apiVersion: 'extensions/v1beta1',
      metadata: { name: 'restricted', uid: 'u', resourceVersion: '7' },
      spec: {
        privileged: true,
        defaultAddCapabilities: ['CHOWN'],
        requiredDropCapabilities: ['ALL'],
        allowedCapabilities: ['NET_ADMIN'],
        volumes: ['configMap', 'secret'],
        hostNetwork: true,
        hostPorts: [{ min: 8000, max: 8080 }],
        hostPID: true,
        hostIPC: true,
        seLinux: { rule: 'MustRunAs', seLinuxOptions: { user: 'u', role: 'r', type: 't', level: 'l' } },
        runAsUser: { rule: 'MustRunAs', ranges: [{ min: 1, max: 65535 }] },
        runAsGroup: { rule: 'MayRunAs', ranges: [{ min: 1, max: 100 }] },
        supplementalGroups: { rule: 'MustRunAs', ranges: [{ min: 1, max: 65535 }] },
        fsGroup: { rule: 'MustRunAs', ranges: [{ min: 1, max: 65535 }] },
        readOnlyRootFilesystem: true,
        defaultAllowPrivilegeEscalation: false,
        allowPrivilegeEscalation: false,
        allowedHostPaths: [{ pathPrefix: '/var/log', readOnly: true }],
        allowedFlexVolumes: [{ driver: 'example/lvm' }],
        allowedCSIDrivers: [{ name: 'csi.example.com' }],
        allowedUnsafeSysctls: ['kernel.msg*'],
        forbiddenSysctls: ['kernel.shm_rmid_forced'],
        allowedProcMountTypes: ['Default'],
        runtimeClass: { allowedRuntimeClassNames: ['gvisor'], defaultRuntimeClassName: 'gvisor' },
      },
    },
    versions: { 'extensions/v1beta1': STORED_FORM, 'policy/v1beta1': conversionOf(POLICY_V1BETA1_KINDS, 'podsecuritypolicies') },
  },
];

const PAIRS = CASES.flatMap((c) => Object.keys(c.versions).flatMap((from) => Object.keys(c.versions).map((to) => [c, from, to] as const)));

describe('networking.k8s.io/v1 and policy/v1beta1 over the stored extensions/v1beta1 objects', () => {
  it.each(PAIRS.map(([c, from, to]) => [c.kind, from, to, c] as const))('%s: %s → stored → %s and back loses nothing', (_kind, from, to, c) => {
    const source = c.versions[from];
    const target = c.versions[to];
    const stored = omitEmpty(c.shape, structuredClone(c.stored));
    const written = source.fromStored(structuredClone(stored));
    expect(written.apiVersion).toBe(from);
    const read = target.fromStored(source.toStored(structuredClone(written)));
    expect(read).toEqual(target.fromStored(structuredClone(stored)));
    expect(read.apiVersion).toBe(to);
    expect(source.fromStored(target.toStored(structuredClone(read)))).toEqual(written);
    expect(target.toStored(read)).toEqual(stored);
  });

  it('moves the Ingress backend, service and ports to networking.k8s.io/v1’s names', () => {
    const v1 = INGRESS_V1_CONVERSION.fromStored(structuredClone(CASES[0].stored)) as KubeObject & { spec: Record<string, unknown> };
    expect(Object.keys(v1.spec)).toEqual(['ingressClassName', 'defaultBackend', 'tls', 'rules']);
    expect(v1.spec.defaultBackend).toEqual({ service: { name: 'default', port: { number: 80 } } });
    expect(v1.spec.rules).toEqual([
      {
        host: 'a.example.com',
        http: {
          paths: [
            { path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { name: 'http' } } } },
            { path: '/exact', pathType: 'Exact', backend: { service: { name: 'api', port: { number: 8080 } } } },
            { path: '/bucket', pathType: 'ImplementationSpecific', backend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'assets' } } },
          ],
        },
      },
      { host: '*.example.com' },
    ]);
  });

  it('reads a path stored without a pathType (written as 1.7 wrote it) as ImplementationSpecific', () => {
    const legacy: KubeObject = { metadata, spec: { rules: [{ http: { paths: [{ path: '/', backend: { serviceName: 's', servicePort: 80 } }] } }] } };
    const v1 = INGRESS_V1_CONVERSION.fromStored(legacy) as KubeObject & { spec: { rules: { http: { paths: unknown[] } }[] } };
    expect(v1.spec.rules[0].http.paths[0]).toEqual({ path: '/', pathType: 'ImplementationSpecific', backend: { service: { name: 's', port: { number: 80 } } } });
    expect(legacy).toEqual({ metadata, spec: { rules: [{ http: { paths: [{ path: '/', backend: { serviceName: 's', servicePort: 80 } }] } }] } });
  });
});
