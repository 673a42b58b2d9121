import { collectionPath, itemPath, kindNamed as kind } from './support/kinds';
import { useTestServer } from './support/api';

const { call } = useTestServer();

describe('bodies that do not fit the Go types', () => {
  it.each([
    ['Deployment', (o: any) => (o.spec.replicas = 'two'), 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'],
    ['Deployment', (o: any) => (o.spec.replicas = 1.5), 'json: cannot unmarshal number into Go struct field DeploymentSpec.spec.replicas of type int32'],
    ['Deployment', (o: any) => (o.spec.template.spec.containers = {}), 'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []Container'],
    ['Deployment', (o: any) => (o.spec.template.metadata.labels = ['app']), 'json: cannot unmarshal array into Go struct field ObjectMeta.spec.template.metadata.labels of type map[string]string'],
    ['Deployment', (o: any) => (o.spec.template.spec.containers[0].resources = { limits: { cpu: 'lots' } }), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['DaemonSet', (o: any) => (o.status = { numberReady: true }), 'json: cannot unmarshal boolean into Go struct field DaemonSetStatus.status.numberReady of type int32'],
    ['Ingress', (o: any) => (o.spec.rules[0].http.paths[0].backend.servicePort = false), 'json: cannot unmarshal boolean into Go struct field IngressBackend.spec.rules.http.paths.backend.servicePort of type intstr.IntOrString'],
    ['ThirdPartyResource', (o: any) => (o.versions = 'v1'), 'json: cannot unmarshal string into Go struct field ThirdPartyResource.versions of type []APIVersion'],
  ])('%s: %s is a 400', async (kindName, change, reason) => {
    const k = kind(kindName);
    const manifest = structuredClone(k.manifest);
    change(manifest);
    const response = await call('POST', collectionPath(k), manifest);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(response.json.message).toBe(`${k.kind} in version "v1beta1" cannot be handled as a ${k.kind}: ${reason}`);
    expect((await call('GET', collectionPath(k))).json.items).toEqual([]);
  });
});

describe('fields the 1.7 types do not have', () => {
  it('are dropped, as a newer client sends them (NetworkPolicy egress, PSP allowPrivilegeEscalation)', async () => {
    const policy = kind('NetworkPolicy');
    const manifest = structuredClone(policy.manifest);
    manifest.spec.policyTypes = ['Ingress', 'Egress'];
    manifest.spec.egress = [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }];
    manifest.spec.ingress[0].from.push({ ipBlock: { cidr: '10.0.0.0/8' } });
    const created = await call('POST', collectionPath(policy), manifest);
    // the ipBlock-only peer became an empty peer, which 1.7 refuses
    expect(created.status).toBe(422);
    expect(created.json.details.causes).toEqual([{ reason: 'FieldValueRequired', field: 'spec.ingress[0].from[1]', message: 'Required value: must specify a from type' }]);
    manifest.spec.ingress[0].from.pop();
    const accepted = await call('POST', collectionPath(policy), manifest);
    expect(accepted.status).toBe(201);
    expect(Object.keys(accepted.json.spec)).toEqual(['podSelector', 'ingress']);
    await call('DELETE', itemPath(policy, 'allow-web'));

    const psp = kind('PodSecurityPolicy');
    const pspCreated = await call('POST', collectionPath(psp), { ...psp.manifest, spec: { ...psp.manifest.spec, allowPrivilegeEscalation: false } });
    expect(pspCreated.status).toBe(201);
    expect(pspCreated.json.spec.allowPrivilegeEscalation).toBeUndefined();
    await call('DELETE', itemPath(psp, 'restricted'));
  });

  it('are dropped from containers too; null fields are left out, null items become zero values', async () => {
    const k = kind('Deployment');
    const manifest = structuredClone(k.manifest);
    manifest.spec.template.spec.containers[0].startupProbe = { exec: { command: ['true'] } };
    manifest.spec.minReadySeconds = null;
    manifest.spec.template.spec.containers[0].resources = { limits: { cpu: null } };
    manifest.spec.template.spec.containers[0].args = [null, 'x'];
    const created = await call('POST', collectionPath(k), manifest);
    expect(created.status).toBe(201);
    const container = created.json.spec.template.spec.containers[0];
    expect(container.startupProbe).toBeUndefined();
    expect('minReadySeconds' in created.json.spec).toBe(false);
    // null items and map values decode to Go's zero values
    expect(container.resources).toEqual({ limits: { cpu: '0' } });
    expect(container.args).toEqual(['', 'x']);
    await call('DELETE', `${itemPath(k, 'web')}?propagationPolicy=Background`);
  });
});
