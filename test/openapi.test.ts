import SwaggerParser from '@apidevtools/swagger-parser';
import { useTestServer } from './support/api';
import { KINDS } from './support/kinds';

// The OpenAPI documents are generated from the kinds' declared types: v2 (JSON and protobuf) and v3.

const { call, server } = useTestServer();
const json = async (path: string) => (await call('GET', path, undefined, { accept: 'application/json' })).json;
const DEPLOYMENT = 'io.k8s.api.extensions.v1beta1.Deployment';

describe('OpenAPI v2', () => {
  it('validates as Swagger 2.0', async () => {
    await expect(SwaggerParser.validate(await json('/openapi/v2'))).resolves.toBeDefined();
  });

  it.each(KINDS)('defines $kind with its group-version-kind, and its list', async (k) => {
    const { definitions } = await json('/openapi/v2');
    // the kind's definition in its group: apps defines Deployments, ReplicaSets and DaemonSets too
    const gvk = (d: any) => d['x-kubernetes-group-version-kind']?.[0];
    const [name, definition] = Object.entries<any>(definitions).find(([, d]) => gvk(d)?.kind === k.kind && gvk(d)?.group === k.group)!;
    expect(definition['x-kubernetes-group-version-kind']).toEqual([{ group: k.group, version: 'v1beta1', kind: k.kind }]);
    expect(Object.keys(definition.properties).slice(0, 3)).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(definitions[`${name}List`].required).toEqual(['items']);
  });

  it('carries required fields, enums, and patch merge keys and strategies', async () => {
    const { definitions } = await json('/openapi/v2');
    const container = definitions['io.k8s.api.core.v1.Container'];
    expect(container.required).toEqual(['name', 'image']);
    expect(container.properties.imagePullPolicy.enum).toEqual(['Always', 'IfNotPresent', 'Never']);
    expect(container.properties.env).toMatchObject({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' });
    expect(definitions[DEPLOYMENT].properties.spec).toEqual({
      $ref: '#/definitions/io.k8s.api.extensions.v1beta1.DeploymentSpec',
      description: 'Desired state of the deployment.',
    });
    expect(definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ type: 'string', format: 'int-or-string' });
  });

  it('publishes how server-side apply treats lists, maps and structs, as the current apiserver does', async () => {
    const { definitions } = await json('/openapi/v2');
    const container = definitions['io.k8s.api.core.v1.Container'];
    expect(container.properties.ports).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'] });
    expect(container.properties.env).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(container.properties.args).toMatchObject({ 'x-kubernetes-list-type': 'atomic' });
    const meta = definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
    expect(meta.properties.finalizers).toMatchObject({ 'x-kubernetes-list-type': 'set' });
    expect(meta.properties.managedFields).toMatchObject({ 'x-kubernetes-list-type': 'atomic' });
    expect(definitions['io.k8s.api.core.v1.PodSpec'].properties.nodeSelector).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    expect(definitions['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    expect(definitions['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1']).toMatchObject({ type: 'object' });
  });

  it('names every operation with its action and kind, and declares dryRun and fieldValidation on writes', async () => {
    const { paths } = await json('/openapi/v2');
    const patch = paths['/apis/extensions/v1beta1/namespaces/{namespace}/deployments/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'extensions', version: 'v1beta1', kind: 'Deployment' });
    expect(patch['x-kubernetes-action']).toBe('patch');
    expect(patch.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['dryRun', 'fieldValidation']));
    const scale = paths['/apis/extensions/v1beta1/namespaces/{namespace}/deployments/{name}/scale'].put;
    expect(scale.parameters[0].schema).toEqual({ $ref: '#/definitions/io.k8s.api.extensions.v1beta1.Scale' });
  });

  it('describes each field: a scalar in its property, a reference to a struct beside the reference', async () => {
    const { definitions } = await json('/openapi/v2');
    const spec = definitions['io.k8s.api.extensions.v1beta1.DeploymentSpec'];
    expect(spec.properties.replicas).toMatchObject({ type: 'integer', description: 'Number of pods the deployment keeps running; 1 by default.' });
    expect(spec.properties.selector).toMatchObject({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' });
    expect(spec.properties.selector.description).toEqual(expect.any(String));
    const meta = definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
    expect(Object.values<any>(meta.properties).filter((property) => !property.description)).toEqual([]);
  });

  it('answers 304 to a client that has the document', async () => {
    const first = await call('GET', '/openapi/v2', undefined, { accept: 'application/json' });
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[0-9A-F]{64}"$/);
    expect((await call('GET', '/openapi/v2', undefined, { accept: 'application/json', 'if-none-match': etag })).status).toBe(304);
    const protobuf = await call('GET', '/openapi/v2', undefined, { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(protobuf.headers.get('etag')).not.toBe(etag);
    expect(protobuf.bytes.length).toBeGreaterThan(10_000);
  });
});

describe('OpenAPI v3', () => {
  it('lists one document per group version, each of which validates as OpenAPI 3.0', async () => {
    const { paths } = await json('/openapi/v3');
    expect(Object.keys(paths).sort()).toEqual([
      'api/v1',
      'apis/apiextensions.k8s.io/v1',
      'apis/apiextensions.k8s.io/v1beta1',
      'apis/apps/v1',
      'apis/apps/v1beta1',
      'apis/apps/v1beta2',
      'apis/coordination.k8s.io/v1',
      'apis/events.k8s.io/v1',
      'apis/extensions/v1beta1',
      'apis/federation/v1beta1',
      'apis/networking.k8s.io/v1',
      'apis/policy/v1beta1',
      'apis/rbac.authorization.k8s.io/v1',
      'apis/rbac.authorization.k8s.io/v1beta1',
    ]);
    for (const { serverRelativeURL } of Object.values<any>(paths)) {
      const document = await call('GET', serverRelativeURL);
      expect(document.headers.get('cache-control')).toBe('public, immutable');
      await expect(SwaggerParser.validate(document.json)).resolves.toBeDefined();
    }
  });

  it('marks each kind with its group-version-kind, and sends an old hash on to the current document', async () => {
    const document = await json('/openapi/v3/apis/extensions/v1beta1');
    expect(document.components.schemas[DEPLOYMENT]['x-kubernetes-group-version-kind']).toEqual([
      { group: 'extensions', version: 'v1beta1', kind: 'Deployment' },
    ]);
    const { serverRelativeURL } = (await json('/openapi/v3')).paths['apis/extensions/v1beta1'];
    const old = await fetch(`${server().url}/openapi/v3/apis/extensions/v1beta1?hash=0000`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(serverRelativeURL);
  });

  it('describes each field, a reference to a struct in an allOf around it', async () => {
    const { components } = await json('/openapi/v3/apis/extensions/v1beta1');
    const spec = components.schemas['io.k8s.api.extensions.v1beta1.DeploymentSpec'];
    expect(spec.properties.replicas).toMatchObject({ type: 'integer', description: 'Number of pods the deployment keeps running; 1 by default.' });
    expect(components.schemas[DEPLOYMENT].properties.spec).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.extensions.v1beta1.DeploymentSpec' }],
      description: 'Desired state of the deployment.',
    });
  });

  it('answers 404 for a group version it does not serve', async () => {
    expect((await call('GET', '/openapi/v3/apis/nope/v1')).status).toBe(404);
  });
});
