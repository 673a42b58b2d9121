import { collectionPath, itemPath, kindNamed as kind } from './support/kinds';
import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

const { call } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);

type Change = (object: any) => void;
const container = (change: Change): Change => (o) => change(o.spec.template.spec.containers[0]);
const podSpec = (change: Change): Change => (o) => change(o.spec.template.spec);

/** [kind, what is wrong, how the fixture is changed, the cause's field, its reason, text its message contains] */
const RULES: [string, string, Change, string, string, string][] = [
  // Deployment
  ['Deployment', 'no selector and no template labels', (o) => { delete o.spec.template.metadata.labels; }, 'spec.selector', 'FieldValueRequired', 'Required value'],
  ['Deployment', 'an empty selector', (o) => { o.spec.selector = {}; }, 'spec.selector', 'FieldValueInvalid', 'empty selector is not valid for deployment.'],
  ['Deployment', 'a selector that misses the template', (o) => { o.spec.selector = { matchLabels: { app: 'db' } }; }, 'spec.template.metadata.labels', 'FieldValueInvalid', '`selector` does not match template `labels`'],
  ['Deployment', 'a selector defaulted from bad template labels', (o) => { o.spec.template.metadata.labels['bad key'] = 'x'; }, 'spec.selector', 'FieldValueInvalid', 'invalid label selector.'],
  ['Deployment', 'an unknown selector operator', (o) => { o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Near', values: ['web'] }] }; }, 'spec.selector.matchExpressions[0].operator', 'FieldValueInvalid', 'not a valid selector operator'],
  ['Deployment', 'a null selector requirement (Go\'s zero value)', (o) => { o.spec.selector = { matchExpressions: [null] }; }, 'spec.selector.matchExpressions[0].operator', 'FieldValueInvalid', 'not a valid selector operator'],
  ['Deployment', 'In without values', (o) => { o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] }; }, 'spec.selector.matchExpressions[0].values', 'FieldValueRequired', "must be specified when `operator` is 'In' or 'NotIn'"],
  ['Deployment', 'Exists with values', (o) => { o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] }; }, 'spec.selector.matchExpressions[0].values', 'FieldValueForbidden', "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
  ['Deployment', 'an unknown strategy', (o) => { o.spec.strategy = { type: 'Blue' }; }, 'spec.strategy', 'FieldValueNotSupported', 'supported values: "Recreate", "RollingUpdate"'],
  ['Deployment', 'Recreate with a rolling update', (o) => { o.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }; }, 'spec.strategy.rollingUpdate', 'FieldValueForbidden', "may not be specified when strategy `type` is 'Recreate'"],
  ['Deployment', 'maxUnavailable and maxSurge both 0', (o) => { o.spec.strategy = { rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } }; }, 'spec.strategy.rollingUpdate.maxUnavailable', 'FieldValueInvalid', 'may not be 0 when `maxSurge` is 0'],
  ['Deployment', 'maxUnavailable over 100%', (o) => { o.spec.strategy = { rollingUpdate: { maxUnavailable: '150%' } }; }, 'spec.strategy.rollingUpdate.maxUnavailable', 'FieldValueInvalid', 'must not be greater than 100%'],
  ['Deployment', 'a malformed percent', (o) => { o.spec.strategy = { rollingUpdate: { maxSurge: 'ten' } }; }, 'spec.strategy.rollingUpdate.maxSurge', 'FieldValueInvalid', "a valid percent string must be a numeric string followed by an ending '%'"],
  ['Deployment', 'a negative maxSurge', (o) => { o.spec.strategy = { rollingUpdate: { maxSurge: -1 } }; }, 'spec.strategy.rollingUpdate.maxSurge', 'FieldValueInvalid', 'must be greater than or equal to 0'],
  ['Deployment', 'negative replicas', (o) => { o.spec.replicas = -1; }, 'spec.replicas', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0'],
  ['Deployment', 'negative minReadySeconds', (o) => { o.spec.minReadySeconds = -1; }, 'spec.minReadySeconds', 'FieldValueInvalid', 'must be greater than or equal to 0'],
  ['Deployment', 'a negative revision history limit', (o) => { o.spec.revisionHistoryLimit = -1; }, 'spec.revisionHistoryLimit', 'FieldValueInvalid', 'must be greater than or equal to 0'],
  ['Deployment', 'a negative rollback revision', (o) => { o.spec.rollbackTo = { revision: -1 }; }, 'spec.rollback.version', 'FieldValueInvalid', 'must be greater than or equal to 0'],
  ['Deployment', 'a progress deadline within minReadySeconds', (o) => { o.spec.minReadySeconds = 10; o.spec.progressDeadlineSeconds = 10; }, 'spec.progressDeadlineSeconds', 'FieldValueInvalid', 'must be greater than minReadySeconds.'],
  ['Deployment', 'a writable GCE disk shared by replicas', podSpec((s) => { s.volumes = [{ name: 'pd', gcePersistentDisk: { pdName: 'd' } }]; }), 'spec.template.spec.volumes[0].gcePersistentDisk.readOnly', 'FieldValueInvalid', 'must be true for replicated pods > 1'],
  // pod templates
  ['Deployment', 'no containers', podSpec((s) => { s.containers = []; }), 'spec.template.spec.containers', 'FieldValueRequired', 'Required value'],
  ['Deployment', 'a container without a name', container((c) => { delete c.name; }), 'spec.template.spec.containers[0].name', 'FieldValueRequired', 'Required value'],
  ['Deployment', 'a container name that is no DNS label', container((c) => { c.name = 'Web_Server'; }), 'spec.template.spec.containers[0].name', 'FieldValueInvalid', 'a DNS-1123 label must consist of'],
  ['Deployment', 'two containers of one name', podSpec((s) => { s.containers[1].name = s.containers[0].name; }), 'spec.template.spec.containers[1].name', 'FieldValueDuplicate', 'Duplicate value: "nginx"'],
  ['Deployment', 'a container without an image', container((c) => { delete c.image; }), 'spec.template.spec.containers[0].image', 'FieldValueRequired', 'Required value'],
  ['Deployment', 'a pod that never restarts', podSpec((s) => { s.restartPolicy = 'Never'; }), 'spec.template.spec.restartPolicy', 'FieldValueNotSupported', 'Unsupported value: "Never": supported values: "Always"'],
  ['Deployment', 'an active deadline', podSpec((s) => { s.activeDeadlineSeconds = 10; }), 'spec.template.spec.activeDeadlineSeconds', 'FieldValueInvalid', 'must not be specified'],
  ['Deployment', 'a container port out of range', container((c) => { c.ports = [{ containerPort: 70000 }]; }), 'spec.template.spec.containers[0].ports[0].containerPort', 'FieldValueInvalid', 'must be between 1 and 65535, inclusive'],
  ['Deployment', 'a port name that is no IANA service name', container((c) => { c.ports = [{ name: 'Web--Port', containerPort: 80 }]; }), 'spec.template.spec.containers[0].ports[0].name', 'FieldValueInvalid', 'must not contain consecutive hyphens'],
  ['Deployment', 'an unknown port protocol', container((c) => { c.ports = [{ containerPort: 80, protocol: 'SCTP' }]; }), 'spec.template.spec.containers[0].ports[0].protocol', 'FieldValueNotSupported', 'supported values: "TCP", "UDP"'],
  ['Deployment', 'an env name that is no C identifier', container((c) => { c.env = [{ name: '1-BAD', value: 'x' }]; }), 'spec.template.spec.containers[0].env[0].name', 'FieldValueInvalid', 'a valid C identifier must start with alphabetic character'],
  ['Deployment', 'a mount of an undeclared volume', container((c) => { c.volumeMounts = [{ name: 'data', mountPath: '/data' }]; }), 'spec.template.spec.containers[0].volumeMounts[0].name', 'FieldValueNotFound', 'Not found: "data"'],
  ['Deployment', 'two volumes of one name', podSpec((s) => { s.volumes = [{ name: 'v' }, { name: 'v' }]; }), 'spec.template.spec.volumes[1].name', 'FieldValueDuplicate', 'Duplicate value: "v"'],
  ['Deployment', 'a volume name that is no DNS label', podSpec((s) => { s.volumes = [{ name: 'Data' }]; }), 'spec.template.spec.volumes[0].name', 'FieldValueInvalid', 'a DNS-1123 label must consist of'],
  ['Deployment', 'a volume of two types', podSpec((s) => { s.volumes = [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }]; }), 'spec.template.spec.volumes[0].emptyDir', 'FieldValueForbidden', 'may not specify more than 1 volume type'],
  ['Deployment', 'a request above its limit', container((c) => { c.resources = { limits: { cpu: '500m' }, requests: { cpu: '1' } }; }), 'spec.template.spec.containers[0].resources.requests[cpu]', 'FieldValueInvalid', 'Invalid value: "1": must be less than or equal to cpu limit'],
  ['Deployment', 'an unknown resource', container((c) => { c.resources = { limits: { disk: '1' } }; }), 'spec.template.spec.containers[0].resources.limits[disk]', 'FieldValueInvalid', 'must be a standard resource for containers'],
  ['Deployment', 'a liveness probe needing two successes', container((c) => { c.livenessProbe = { exec: { command: ['true'] }, successThreshold: 2 }; }), 'spec.template.spec.containers[0].livenessProbe.successThreshold', 'FieldValueInvalid', 'Invalid value: 2: must be 1'],
  ['Deployment', 'a probe without an action', container((c) => { c.readinessProbe = { periodSeconds: 5 }; }), 'spec.template.spec.containers[0].readinessProbe', 'FieldValueRequired', 'must specify a handler type'],
  ['Deployment', 'an unknown DNS policy', podSpec((s) => { s.dnsPolicy = 'Google'; }), 'spec.template.spec.dnsPolicy', 'FieldValueNotSupported', 'supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default"'],
  ['Deployment', 'an unknown pull policy', container((c) => { c.imagePullPolicy = 'Sometimes'; }), 'spec.template.spec.containers[0].imagePullPolicy', 'FieldValueNotSupported', 'supported values: "Always", "IfNotPresent", "Never"'],
  ['Deployment', 'an unknown termination message policy', container((c) => { c.terminationMessagePolicy = 'Console'; }), 'spec.template.spec.containers[0].terminationMessagePolicy', 'FieldValueInvalid', "must be 'File' or 'FallbackToLogsOnError'"],
  ['Deployment', 'a template label key that is no qualified name', (o) => { o.spec.selector = { matchLabels: { app: 'web' } }; o.spec.template.metadata.labels['bad key'] = 'x'; }, 'spec.template.labels', 'FieldValueInvalid', 'Invalid value: "bad key"'],
  // ReplicaSet
  ['ReplicaSet', 'no selector and no template labels', (o) => { delete o.spec.selector; delete o.spec.template.metadata.labels; }, 'spec.selector', 'FieldValueRequired', 'Required value'],
  ['ReplicaSet', 'an empty selector (with 1.7 wording)', (o) => { o.spec.selector = {}; }, 'spec.selector', 'FieldValueInvalid', 'empty selector is not valid for deployment.'],
  ['ReplicaSet', 'a selector that misses the template', (o) => { o.spec.selector = { matchLabels: { app: 'db' } }; }, 'spec.template.metadata.labels', 'FieldValueInvalid', '`selector` does not match template `labels`'],
  ['ReplicaSet', 'negative replicas', (o) => { o.spec.replicas = -3; }, 'spec.replicas', 'FieldValueInvalid', 'must be greater than or equal to 0'],
  ['ReplicaSet', 'negative minReadySeconds', (o) => { o.spec.minReadySeconds = -3; }, 'spec.minReadySeconds', 'FieldValueInvalid', 'must be greater than or equal to 0'],
  // DaemonSet
  ['DaemonSet', 'no selector and no template labels', (o) => { delete o.spec.template.metadata.labels; }, 'spec.template.metadata.labels', 'FieldValueInvalid', '`selector` does not match template `labels`'],
  ['DaemonSet', 'an empty selector', (o) => { o.spec.selector = {}; }, 'spec.selector', 'FieldValueInvalid', 'empty selector is not valid for daemonset.'],
  ['DaemonSet', 'an unknown update strategy', (o) => { o.spec.updateStrategy = { type: 'Surge' }; }, 'spec.updateStrategy', 'FieldValueNotSupported', 'supported values: "RollingUpdate", "OnDelete"'],
  ['DaemonSet', 'a rolling update of none at a time', (o) => { o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } }; }, 'spec.updateStrategy.rollingUpdate.maxUnavailable', 'FieldValueInvalid', 'Invalid value: 0: cannot be 0'],
  ['DaemonSet', 'a pod that restarts on failure only', podSpec((s) => { s.restartPolicy = 'OnFailure'; }), 'spec.template.spec.restartPolicy', 'FieldValueNotSupported', 'supported values: "Always"'],
  ['DaemonSet', 'a writable GCE disk', podSpec((s) => { s.volumes = [{ name: 'pd', gcePersistentDisk: { pdName: 'd' } }]; }), 'spec.template.spec.volumes[0].gcePersistentDisk.readOnly', 'FieldValueInvalid', 'must be true for replicated pods > 1'],
  ['DaemonSet', 'a negative revision history limit', (o) => { o.spec.revisionHistoryLimit = -1; }, 'spec.revisionHistoryLimit', 'FieldValueInvalid', 'must be greater than or equal to 0'],
  // Ingress
  ['Ingress', 'neither backend nor rules', (o) => { o.spec = {}; }, 'spec', 'FieldValueInvalid', 'either `backend` or `rules` must be specified'],
  ['Ingress', 'a backend without a service', (o) => { o.spec = { backend: { servicePort: 80 } }; }, 'spec.backend.serviceName', 'FieldValueRequired', 'Required value'],
  ['Ingress', 'a service name that is no DNS-1035 label', (o) => { o.spec = { backend: { serviceName: '1web', servicePort: 80 } }; }, 'spec.backend.serviceName', 'FieldValueInvalid', 'a DNS-1035 label must consist of'],
  ['Ingress', 'a service port out of range', (o) => { o.spec = { backend: { serviceName: 'web', servicePort: 0 } }; }, 'spec.backend.servicePort', 'FieldValueInvalid', 'must be between 1 and 65535, inclusive'],
  ['Ingress', 'an IP as host', (o) => { o.spec.rules[0].host = '10.0.0.1'; }, 'spec.rules[0].host', 'FieldValueInvalid', 'must be a DNS name, not an IP address'],
  ['Ingress', 'a host that is no DNS name', (o) => { o.spec.rules[0].host = 'Www.Example.com'; }, 'spec.rules[0].host', 'FieldValueInvalid', 'a DNS-1123 subdomain must consist of'],
  ['Ingress', 'a malformed wildcard host', (o) => { o.spec.rules[0].host = '*x.example.com'; }, 'spec.rules[0].host', 'FieldValueInvalid', "a wildcard DNS-1123 subdomain must start with '*.'"],
  ['Ingress', 'a second rule without paths (reported at rules[0])', (o) => { o.spec.rules.push({ host: 'b.example.com', http: { paths: [] } }); }, 'spec.rules[0].http.paths', 'FieldValueRequired', 'Required value'],
  ['Ingress', 'a relative path', (o) => { o.spec.rules[0].http.paths[0].path = 'web'; }, 'spec.rules[0].http.paths[0].path', 'FieldValueInvalid', 'must be an absolute path'],
  ['Ingress', 'a path that is no regex', (o) => { o.spec.rules[0].http.paths[0].path = '/(web'; }, 'spec.rules[0].http.paths[0].path', 'FieldValueInvalid', 'must be a valid regex'],
  ['Ingress', 'a bad TLS host (indexed by the host)', (o) => { o.spec.tls = [{ hosts: ['a.example.com', 'B_host'] }]; }, 'spec.tls[1].hosts', 'FieldValueInvalid', 'a DNS-1123 subdomain must consist of'],
  // NetworkPolicy
  ['NetworkPolicy', 'an unknown protocol', (o) => { o.spec.ingress[0].ports[0].protocol = 'SCTP'; }, 'spec.ingress[0].ports[0].protocol', 'FieldValueNotSupported', 'supported values: "TCP", "UDP"'],
  ['NetworkPolicy', 'a port out of range', (o) => { o.spec.ingress[0].ports[0].port = 0; }, 'spec.ingress[0].ports[0].port', 'FieldValueInvalid', 'must be between 1 and 65535, inclusive'],
  ['NetworkPolicy', 'a peer of two types', (o) => { o.spec.ingress[0].from[0].namespaceSelector = {}; }, 'spec.ingress[0].from[0]', 'FieldValueForbidden', 'may not specify more than 1 from type'],
  ['NetworkPolicy', 'a peer of no type', (o) => { o.spec.ingress[0].from[0] = {}; }, 'spec.ingress[0].from[0]', 'FieldValueRequired', 'must specify a from type'],
  ['NetworkPolicy', 'a bad pod selector', (o) => { o.spec.podSelector = { matchLabels: { 'bad key': 'x' } }; }, 'spec.podSelector.matchLabels', 'FieldValueInvalid', 'Invalid value: "bad key"'],
  // PodSecurityPolicy
  ['PodSecurityPolicy', 'no seLinux strategy', (o) => { delete o.spec.seLinux; }, 'spec.seLinux.rule', 'FieldValueNotSupported', 'Unsupported value: "": supported values: "MustRunAs", "RunAsAny"'],
  ['PodSecurityPolicy', 'an unknown user rule', (o) => { o.spec.runAsUser = { rule: 'AsRoot' }; }, 'spec.runAsUser.rule', 'FieldValueNotSupported', 'supported values: "MustRunAs", "MustRunAsNonRoot", "RunAsAny"'],
  ['PodSecurityPolicy', 'an empty fsGroup rule', (o) => { o.spec.fsGroup = {}; }, 'spec.fsGroup.rule', 'FieldValueNotSupported', 'Unsupported value: ""'],
  ['PodSecurityPolicy', 'a range upside down', (o) => { o.spec.runAsUser = { rule: 'MustRunAs', ranges: [{ min: 10, max: 5 }] }; }, 'spec.runAsUser.ranges[0].min', 'FieldValueInvalid', 'min cannot be greater than max'],
  ['PodSecurityPolicy', 'a negative range', (o) => { o.spec.supplementalGroups = { rule: 'MustRunAs', ranges: [{ min: -1, max: 5 }] }; }, 'spec.supplementalGroups.ranges[0].min', 'FieldValueInvalid', 'min cannot be negative'],
  ['PodSecurityPolicy', 'an unknown volume type', (o) => { o.spec.volumes = ['secret', 'tmpfs']; }, 'spec.volumes', 'FieldValueNotSupported', 'Unsupported value: "tmpfs"'],
  ['PodSecurityPolicy', 'a capability added and dropped (path without spec.)', (o) => { o.spec.defaultAddCapabilities = ['NET_ADMIN']; o.spec.requiredDropCapabilities = ['NET_ADMIN']; }, 'defaultAddCapabilities', 'FieldValueInvalid', 'capability is listed in defaultAddCapabilities and requiredDropCapabilities'],
  ['PodSecurityPolicy', 'an unknown seccomp profile', (o) => { o.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/defaultProfileName': 'strict' }; }, 'metadata.annotations[seccomp.security.alpha.kubernetes.io/defaultProfileName]', 'FieldValueInvalid', 'must be a valid seccomp profile'],
  ['PodSecurityPolicy', 'an unknown AppArmor profile', (o) => { o.metadata.annotations = { 'apparmor.security.beta.kubernetes.io/allowedProfileNames': 'runtime/default,strict' }; }, 'metadata.annotations[apparmor.security.beta.kubernetes.io/allowedProfileNames]', 'FieldValueInvalid', 'invalid AppArmor profile name: "strict"'],
  ['PodSecurityPolicy', 'a malformed sysctl pattern', (o) => { o.metadata.annotations = { 'security.alpha.kubernetes.io/sysctls': 'kernel.shm_rmid_forced,Net.*' }; }, 'metadata.annotations[security.alpha.kubernetes.io/sysctls][1]', 'FieldValueInvalid', 'must have at most 253 characters and match regex'],
  // ThirdPartyResource
  ['ThirdPartyResource', 'a name of two parts', (o) => { o.metadata.name = 'cron.example'; }, 'metadata.name', 'FieldValueInvalid', 'expected at least <kind>.<domain>.<tld>'],
  ['ThirdPartyResource', 'a version without a name', (o) => { o.versions = [{}]; }, 'versions[0].name', 'FieldValueInvalid', 'must not be empty'],
  ['ThirdPartyResource', 'a version twice', (o) => { o.versions = [{ name: 'v1' }, { name: 'v1' }]; }, 'versions[1].name', 'FieldValueDuplicate', 'Duplicate value'],
  // federation Cluster
  ['Cluster', 'no server address', (o) => { delete o.spec.serverAddressByClientCIDRs; }, 'spec.serverAddressByClientCIDRs', 'FieldValueRequired', 'Required value'],
  ['Cluster', 'a name that is no DNS-1035 label', (o) => { o.metadata.name = '1-east'; }, 'metadata.name', 'FieldValueInvalid', 'a DNS-1035 label must consist of'],
];

describe.each(RULES)('%s with %s', (kindName, _what, change, field, reason, message) => {
  it(`is refused with 422 and a ${reason} cause at ${field}`, async () => {
    const k = kind(kindName);
    const manifest = structuredClone(k.manifest);
    change(manifest);
    const response = await call('POST', collectionPath(k), manifest);
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, details: { group: k.group, kind: k.kind } });
    expect(response.json.message).toMatch(new RegExp(`^${k.kind}\\.${k.group} ".*" is invalid: `));
    expect(response.json.details.causes).toContainEqual({ reason, field, message: expect.stringContaining(message) });
    expect((await call('GET', collectionPath(k))).json.items).toEqual([]);
  });
});

describe('one cause per problem', () => {
  it('reports every problem of a body at once, in brackets', async () => {
    const k = kind('Deployment');
    const manifest = structuredClone(k.manifest);
    manifest.spec.replicas = -1;
    delete manifest.spec.template.spec.containers[0].image;
    manifest.spec.strategy = { type: 'Blue' };
    const response = await call('POST', collectionPath(k), manifest);
    expect(response.status).toBe(422);
    expect(response.json.details.causes.map((c: any) => c.field)).toEqual([
      'spec.replicas',
      'spec.template.spec.containers[0].image',
      'spec.strategy',
    ]);
    expect(response.json.message).toMatch(/^Deployment\.extensions "web" is invalid: \[spec\.replicas: Invalid value: -1: must be greater than or equal to 0, spec\.template\.spec\.containers\[0\]\.image: Required value, spec\.strategy: Unsupported value: /);
  });
});

describe('update rules', () => {
  it('NetworkPolicy: the spec cannot change, even to an equivalent form; metadata can', async () => {
    const k = kind('NetworkPolicy');
    const created = (await call('POST', collectionPath(k), k.manifest)).json;
    for (const spec of [{ ...created.spec, podSelector: {} }, { ...created.spec, ingress: [...created.spec.ingress, {}] }]) {
      const response = await call('PUT', itemPath(k, 'allow-web'), { ...created, spec });
      expect(response.status).toBe(422);
      expect(response.json.message).toBe('NetworkPolicy.extensions "allow-web" is invalid: spec: Forbidden: updates to networkpolicy spec are forbidden.');
    }
    const labelled = await call('PUT', itemPath(k, 'allow-web'), { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(labelled.status).toBe(200);
    expect(labelled.json.metadata.generation).toBe(1);
    await call('DELETE', itemPath(k, 'allow-web'));
  });

  it('Cluster: updates are not checked beyond metadata (the addresses may be emptied)', async () => {
    const k = kind('Cluster');
    const created = (await call('POST', collectionPath(k), k.manifest)).json;
    const updated = await call('PUT', itemPath(k, 'us-east'), { ...created, spec: { secretRef: created.spec.secretRef } });
    expect(updated.status).toBe(200);
    expect(updated.json.spec.serverAddressByClientCIDRs).toBeUndefined();
    await call('DELETE', itemPath(k, 'us-east'));
  });

  it('Deployment: an update is validated like a create', async () => {
    const k = kind('Deployment');
    const created = (await call('POST', collectionPath(k), k.manifest)).json;
    const response = await call('PUT', itemPath(k, 'web'), { ...created, spec: { ...created.spec, selector: { matchLabels: { app: 'db' } } } });
    expect(response.status).toBe(422);
    expect(response.json.details.causes[0].field).toBe('spec.template.metadata.labels');
    await call('DELETE', `${itemPath(k, 'web')}?propagationPolicy=Background`);
  });
});
