import { join } from 'node:path';
import { useTestServer } from './support/api';
import { usePreviousBuildRows } from './support/previous-build-rows';

const { call, server } = useTestServer();

/**
 * Ingresses, NetworkPolicies and PodSecurityPolicies the previous build (c231e07, before networking.k8s.io and
 * policy) wrote through extensions/v1beta1, as its `objects` rows hold them (captured from that build's database):
 * this build serves them as networking.k8s.io/v1 and policy/v1beta1 objects, and its writes through those leave
 * them as that build wrote them, but for the change.
 */
const byName = usePreviousBuildRows(server, join(__dirname, 'fixtures', 'networking', 'objects-c231e07.json'));
const EXT = '/apis/extensions/v1beta1';
const INGRESS = 'namespaces/default/ingresses/old-ingress';
const POLICY = 'namespaces/default/networkpolicies/old-policy';
const PSP = 'podsecuritypolicies/old-psp';
const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('objects the previous build stored', () => {
  it('are served through networking.k8s.io/v1 and policy/v1beta1 with their uid and fields in those versions’ names', async () => {
    const ingress = await call('GET', `/apis/networking.k8s.io/v1/${INGRESS}`);
    expect(ingress.status).toBe(200);
    const stored = byName('old-ingress');
    expect(ingress.json).toMatchObject({ apiVersion: 'networking.k8s.io/v1', metadata: { uid: stored.metadata.uid, labels: stored.metadata.labels, annotations: stored.metadata.annotations } });
    expect(ingress.json.spec).toEqual({
      defaultBackend: { service: { name: 'default-http', port: { number: 80 } } },
      tls: stored.spec.tls,
      rules: [
        {
          host: 'old.example.com',
          http: {
            paths: [
              { path: '/api', pathType: 'ImplementationSpecific', backend: { service: { name: 'api', port: { name: 'http' } } } },
              { pathType: 'ImplementationSpecific', backend: { service: { name: 'web', port: { number: 8080 } } } },
            ],
          },
        },
      ],
    });
    const policy = (await call('GET', `/apis/networking.k8s.io/v1/${POLICY}`)).json;
    expect(policy).toMatchObject({ apiVersion: 'networking.k8s.io/v1', metadata: { uid: byName('old-policy').metadata.uid } });
    expect(policy.spec).toEqual(byName('old-policy').spec);
    const psp = (await call('GET', `/apis/policy/v1beta1/${PSP}`)).json;
    expect(psp).toMatchObject({ apiVersion: 'policy/v1beta1', metadata: { uid: byName('old-psp').metadata.uid } });
    expect(psp.spec).toEqual(byName('old-psp').spec);
  });

  // a write through networking.k8s.io/v1 stores what that version reads where the previous build stored nothing (the
  // same meaning: a path's ImplementationSpecific type, the policy types its rules imply), as upstream's did
  const withPathTypes = (spec: any) => ({
    ...spec,
    rules: spec.rules.map((rule: any) => ({ ...rule, http: { paths: rule.http.paths.map((path: any) => ({ ...path, pathType: 'ImplementationSpecific' })) } })),
  });
  it.each([
    ['old-ingress', 'networking.k8s.io/v1', INGRESS, withPathTypes],
    ['old-policy', 'networking.k8s.io/v1', POLICY, (spec: any) => ({ ...spec, policyTypes: ['Ingress'] })],
    ['old-psp', 'policy/v1beta1', PSP, (spec: any) => spec],
  ])('%s is written through %s and read back through extensions as the previous build wrote it, but for the change', async (name, version, path, filledIn) => {
    const patched = await call('PATCH', `/apis/${version}/${path}`, { metadata: { labels: { upgraded: 'yes' } } }, MERGE);
    expect(patched.status).toBe(200);
    const after = (await call('GET', `${EXT}/${path}`)).json;
    const { metadata, spec, ...rest } = byName(name);
    // the generation is left out: it counts what is filled in as a change of the spec (upstream's, which had it
    // from decoding the stored object, did not)
    const changing = { selfLink: undefined, resourceVersion: undefined, managedFields: undefined, generation: undefined };
    expect({ ...after, metadata: { ...after.metadata, ...changing } }).toEqual({
      ...rest,
      metadata: { ...metadata, ...changing, labels: { ...metadata.labels, upgraded: 'yes' } },
      spec: filledIn(spec),
    });
  });
});
