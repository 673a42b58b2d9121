import SwaggerParser from '@apidevtools/swagger-parser';
import { load } from 'js-yaml';
import { call, untilStatus, useTwoInstances } from './support/two-instances';
import { WatchClient } from './support/watch-client';
import { crontabCrd } from './support/crontab-definition';

/**
 * A CustomResourceDefinition (apiextensions.k8s.io/v1) is a served API on every instance: its versions, scope,
 * names, schema (validation, pruning, defaults), status subresource and printer columns.
 */
const on = useTwoInstances();

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

const cronTab = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name },
  spec,
  ...extra,
});

describe('a CustomResourceDefinition created on one instance', () => {
  it('is accepted with its defaults and a status that says it is established', async () => {
    const created = await call(on.a, 'POST', CRDS, crontabCrd());
    expect(created.status).toBe(201);
    expect(created.json.spec.names.listKind).toBe('CronTabList');
    expect(created.json.spec.conversion).toEqual({ strategy: 'None' });
    const conditions = created.json.status.conditions.map((c: any) => [c.type, c.status]);
    expect(conditions).toEqual([
      ['NamesAccepted', 'True'],
      ['Established', 'True'],
    ]);
    expect(created.json.status.acceptedNames).toMatchObject({ plural: 'crontabs', kind: 'CronTab', shortNames: ['ct'] });
    expect(created.json.status.storedVersions).toEqual(['v1']);
  });

  it('is served on the other within a second, with its names in discovery', async () => {
    expect(await untilStatus(on.b, CRONTABS, 200)).toBeLessThan(1000);
    const resources = (await call(on.b, 'GET', '/apis/stable.example.com/v1')).json.resources;
    expect(resources).toEqual([
      expect.objectContaining({ name: 'crontabs', singularName: 'crontab', namespaced: true, kind: 'CronTab', shortNames: ['ct'], categories: ['all'] }),
      expect.objectContaining({ name: 'crontabs/scale', kind: 'Scale', group: 'autoscaling', version: 'v1' }),
      expect.objectContaining({ name: 'crontabs/status', kind: 'CronTab' }),
    ]);
    expect((await call(on.b, 'GET', '/apis/stable.example.com/v1beta1/namespaces/default/crontabs')).status).toBe(404); // not served
    expect((await call(on.b, 'GET', '/apis/apiextensions.k8s.io/v1')).json.resources[0]).toMatchObject({
      name: 'customresourcedefinitions',
      namespaced: false,
      shortNames: ['crd', 'crds'],
    });
  });

  it('refuses an invalid definition with 422 and the paths of its fields', async () => {
    const bad = crontabCrd([{ name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: {} } } } }]);
    (bad.metadata as any).name = 'wrong.stable.example.com';
    (bad.spec as any).scope = 'Everywhere';
    const refused = await call(on.a, 'POST', CRDS, bad);
    expect(refused.status).toBe(422);
    expect(refused.json.details.causes.map((c: any) => c.field)).toEqual(
      expect.arrayContaining([
        'metadata.name',
        'spec.scope',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].type',
        'spec.versions',
      ]),
    );
    const noSchema = crontabCrd([{ name: 'v1', served: true, storage: true }]);
    (noSchema.metadata as any).name = 'crontabs.other.example.com';
    (noSchema.spec as any).group = 'other.example.com';
    const refusedSchema = await call(on.a, 'POST', CRDS, noSchema);
    expect(refusedSchema.status).toBe(422);
    expect(refusedSchema.json.details.causes).toContainEqual({
      reason: 'FieldValueRequired',
      message: 'Required value: schemas are required',
      field: 'spec.versions[0].schema.openAPIV3Schema',
    });
  });
});

describe('OpenAPI', () => {
  it('publishes each served version\'s schema, in v2 as Swagger 2.0 reads it and in v3 as declared', async () => {
    const v2 = (await call(on.b, 'GET', '/openapi/v2')).json;
    await expect(SwaggerParser.validate(structuredClone(v2))).resolves.toBeDefined();
    const cronTab = v2.definitions['com.example.stable.v1.CronTab'];
    expect(cronTab['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', version: 'v1', kind: 'CronTab' }]);
    expect(Object.keys(cronTab.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(cronTab.properties.metadata).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    expect(cronTab.properties.spec.properties.replicas).toEqual({ type: 'integer', minimum: 1, maximum: 10, default: 1 });
    expect(cronTab.properties.spec.properties.extra).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    const object = v2.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'];
    // no strategic merge patch, so that kubectl apply sends a merge patch; server-side apply as for every kind
    expect(object.patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(object.get.produces).toEqual(['application/json', 'application/yaml']);
    expect(v2.paths).toHaveProperty(['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status']);
    const v3 = (await call(on.b, 'GET', '/openapi/v3/apis/stable.example.com/v1')).json;
    const v3CronTab = v3.components.schemas['com.example.stable.v1.CronTab'];
    expect(v3CronTab.properties.spec.properties.extra).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(v3CronTab.properties.spec.properties.ports['x-kubernetes-list-map-keys']).toEqual(['name']);
  });
});

describe('custom objects', () => {
  it('are defaulted and pruned as their schema says, and kept with their preserved fields', async () => {
    const created = await call(
      on.a,
      'POST',
      CRONTABS,
      cronTab('first', { cronSpec: '* * * * */5', unknown: 'dropped', ports: [{ name: 'http' }], extra: { any: { thing: [1] } }, size: '1Gi' }, { topLevel: 'dropped' }),
    );
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual({
      cronSpec: '* * * * */5',
      replicas: 1,
      policy: 'Allow',
      ports: [{ name: 'http', port: 80 }],
      extra: { any: { thing: [1] } },
      size: '1Gi',
    });
    expect(created.json).not.toHaveProperty('topLevel');
    const strict = await call(on.b, 'POST', `${CRONTABS}?fieldValidation=Strict`, cronTab('strict', { cronSpec: '* * * * *', ports: [{ name: 'x', colour: 'red' }] }, { topLevel: 1 }));
    expect(strict.status).toBe(400);
    expect(strict.json.message).toContain('strict decoding error: unknown field "spec.ports[0].colour", unknown field "topLevel"');
    const warned = await call(on.b, 'POST', `${CRONTABS}?fieldValidation=Warn&dryRun=All`, cronTab('warned', { cronSpec: '* * * * *' }, { topLevel: 1 }));
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toBe('299 - "unknown field \\"topLevel\\""');
    expect(created.json).not.toHaveProperty('status'); // status is written through /status only
    expect(created.json.metadata.generation).toBe(1);
    const read = await call(on.b, 'GET', `${CRONTABS}/first`);
    expect(read.json).toEqual(created.json);
  });

  it('that do not match the schema are refused with 422 naming each field', async () => {
    const refused = await call(on.b, 'POST', CRONTABS, cronTab('bad', { cronSpec: 'nope', replicas: 20, policy: 'Maybe', ports: [{ port: 1 }], size: true }));
    expect(refused.status).toBe(422);
    expect(refused.json.message).toContain('CronTab.stable.example.com "bad" is invalid');
    const causes = Object.fromEntries(refused.json.details.causes.map((c: any) => [c.field, c.message]));
    expect(causes).toEqual({
      'spec.cronSpec': "Invalid value: \"nope\": spec.cronSpec in body should match '^(\\S+ ){4}\\S+$'",
      'spec.replicas': 'Invalid value: 20: spec.replicas in body should be less than or equal to 10',
      'spec.policy': 'Unsupported value: "Maybe": supported values: "Allow", "Forbid"',
      'spec.ports[0].name': 'Required value',
      'spec.size': 'Invalid value: true: spec.size in body must be an integer or a string',
    });
    const missing = await call(on.b, 'POST', CRONTABS, cronTab('bad', { image: 'x' }));
    expect(missing.status).toBe(422);
    expect(missing.json.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.cronSpec' }]);
    const twice = await call(on.b, 'POST', CRONTABS, cronTab('bad', { cronSpec: '* * * * *', ports: [{ name: 'a' }, { name: 'b', port: 1 }, { name: 'a', port: 2 }] }));
    expect(twice.json.details.causes).toEqual([{ reason: 'FieldValueDuplicate', message: 'Duplicate value: {"name":"a"}', field: 'spec.ports[2]' }]);
    const wrongType = await call(on.b, 'POST', CRONTABS, cronTab('bad', { cronSpec: '* * * * *', replicas: 'two' }));
    expect(wrongType.json.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"', field: 'spec.replicas' },
    ]);
  });

  it('keep their status apart: /status writes it, the main resource keeps it, the generation counts the rest', async () => {
    const path = `${CRONTABS}/first`;
    const current = (await call(on.a, 'GET', path)).json;
    const status = await call(on.a, 'PUT', `${path}/status`, { ...current, spec: { cronSpec: 'ignored' }, status: { replicas: 3 } });
    expect(status.status).toBe(200);
    expect(status.json.status).toEqual({ replicas: 3 });
    expect(status.json.spec.cronSpec).toBe('* * * * */5');
    expect(status.json.metadata.generation).toBe(1);
    const main = await call(on.b, 'PATCH', path, JSON.stringify({ spec: { replicas: 2 }, status: { replicas: 9 } }), { 'content-type': 'application/merge-patch+json' });
    expect(main.status).toBe(200);
    expect(main.json.status).toEqual({ replicas: 3 });
    expect(main.json.spec.replicas).toBe(2);
    expect(main.json.metadata.generation).toBe(2);
  });

  it('are scaled through their declared paths, within their schema', async () => {
    const path = `${CRONTABS}/first/scale`;
    await call(on.a, 'PATCH', `${CRONTABS}/first/status`, JSON.stringify({ status: { selector: 'app=cron' } }), { 'content-type': 'application/merge-patch+json' });
    const scale = await call(on.b, 'GET', path);
    expect(scale.status).toBe(200);
    expect(scale.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 3, selector: 'app=cron' } });
    const resized = await call(on.a, 'PATCH', path, JSON.stringify({ spec: { replicas: 5 } }), { 'content-type': 'application/merge-patch+json' });
    expect(resized.status).toBe(200);
    expect(resized.json.spec.replicas).toBe(5);
    const object = (await call(on.b, 'GET', `${CRONTABS}/first`)).json;
    expect(object.spec.replicas).toBe(5);
    expect(object.metadata.generation).toBe(3);
    const tooMany = await call(on.b, 'PUT', path, { ...resized.json, spec: { replicas: 20 } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.json.details.causes[0]).toMatchObject({ field: 'spec.replicas' });
  });

  it('are served in JSON and YAML, not protobuf, and take no strategic merge patch', async () => {
    const yaml = await call(on.b, 'GET', `${CRONTABS}/first`, undefined, { accept: 'application/yaml' });
    expect(yaml.status).toBe(200);
    expect((load(yaml.text) as any).spec.cronSpec).toBe('* * * * */5');
    expect((await call(on.b, 'GET', CRONTABS, undefined, { accept: 'application/vnd.kubernetes.protobuf' })).status).toBe(406);
    const strategic = await call(on.a, 'PATCH', `${CRONTABS}/first`, '{}', { 'content-type': 'application/strategic-merge-patch+json' });
    expect(strategic.status).toBe(415);
  });

  it('list as unstructured lists are written, each item with its kind', async () => {
    const list = await call(on.a, 'GET', CRONTABS);
    expect(Object.keys(list.json)).toEqual(['apiVersion', 'items', 'kind', 'metadata']);
    expect(list.json).toMatchObject({ apiVersion: 'stable.example.com/v1', kind: 'CronTabList' });
    expect(list.json.items[0]).toMatchObject({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'first' } });
  });

  it('print their additionalPrinterColumns in a Table', async () => {
    const table = await call(on.b, 'GET', CRONTABS, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.status).toBe(200);
    expect(table.json.columnDefinitions.map((c: any) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Spec', 'string'],
      ['Replicas', 'integer'],
      ['Age', 'date'],
    ]);
    expect(table.json.rows[0].cells.slice(0, 3)).toEqual(['first', '* * * * */5', 5]);
    expect(table.json.rows[0].cells[3]).toMatch(/^\d+s$/);
  });

  it('are watched on both instances', async () => {
    const watchA = await WatchClient.open(on.a.url, `${CRONTABS}?watch=true`);
    const watchB = await WatchClient.open(on.b.url, '/apis/stable.example.com/v1/crontabs?watch=true');
    await watchA.count(1);
    await watchB.count(1);
    expect((await call(on.b, 'POST', CRONTABS, cronTab('second', { cronSpec: '0 0 * * *' }))).status).toBe(201);
    for (const watch of [watchA, watchB]) {
      await watch.count(2);
      expect(watch.summary()).toEqual(['ADDED first', 'ADDED second']);
      watch.close();
    }
  });
});

describe('in SQL', () => {
  it('definitions and their objects are listed by the kube views, objects with their group and definition', async () => {
    const [crd] = await on.a.sql("SELECT * FROM kube.customresourcedefinitions WHERE name = 'crontabs.stable.example.com'");
    expect(crd).toMatchObject({ api_group: 'stable.example.com', plural: 'crontabs', kind: 'CronTab', scope: 'Namespaced', served_versions: ['v1'], storage_version: 'v1', established: true, terminating: null });
    const objects = await on.b.sql("SELECT api_group, resource, kind, definition, namespace, name FROM kube.custom_objects WHERE definition = 'crontabs.stable.example.com' ORDER BY name");
    expect(objects).toEqual([
      { api_group: 'stable.example.com', resource: 'crontabs', kind: 'CronTab', definition: 'crontabs.stable.example.com', namespace: 'default', name: 'first' },
      { api_group: 'stable.example.com', resource: 'crontabs', kind: 'CronTab', definition: 'crontabs.stable.example.com', namespace: 'default', name: 'second' },
    ]);
    const changes = await on.a.sql("SELECT DISTINCT event_type FROM change_log WHERE api_group = 'stable.example.com' ORDER BY 1");
    expect(changes.map((c) => c.event_type)).toEqual(['ADDED', 'MODIFIED']);
  });
});

/** A cluster-scoped definition of tools.example.com whose versions all have the same schema (a spec with a size). */
const toolsCrd = (plural: string, kind: string, versions: Record<string, unknown>[]) => {
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
  return {
    metadata: { name: `${plural}.tools.example.com` },
    spec: { group: 'tools.example.com', scope: 'Cluster', names: { plural, kind }, versions: versions.map((version) => ({ ...version, schema })) },
  };
};

describe('a cluster-scoped definition with several versions', () => {
  it('serves every served version of the same objects, with None conversion', async () => {
    const created = await call(
      on.b,
      'POST',
      CRDS,
      toolsCrd('widgets', 'Widget', [
        { name: 'v1', served: true, storage: true },
        { name: 'v2', served: true, storage: false },
      ]),
    );
    expect(created.status).toBe(201);
    await untilStatus(on.a, '/apis/tools.example.com/v2/widgets', 200);
    const made = await call(on.a, 'POST', '/apis/tools.example.com/v1/widgets', { metadata: { name: 'w' }, spec: { size: 3 } });
    expect(made.status).toBe(201);
    expect(made.json.metadata).not.toHaveProperty('namespace');
    const asV2 = await call(on.b, 'GET', '/apis/tools.example.com/v2/widgets/w');
    expect(asV2.json).toMatchObject({ apiVersion: 'tools.example.com/v2', kind: 'Widget', spec: { size: 3 } });
    expect((await call(on.a, 'GET', '/apis/tools.example.com/v1/namespaces/default/widgets')).status).toBe(404);
    const discovered = (await call(on.a, 'GET', '/apis/tools.example.com')).json;
    expect(discovered.versions.map((v: any) => v.version)).toEqual(['v2', 'v1']); // by priority, whatever the order declared
    expect(discovered.preferredVersion).toEqual({ groupVersion: 'tools.example.com/v2', version: 'v2' });
  });
});

describe('a definition with deprecated versions', () => {
  it('warns every request of a deprecated version, naming the newest served version to use, or in its own words', async () => {
    const created = await call(
      on.a,
      'POST',
      CRDS,
      toolsCrd('gizmos', 'Gizmo', [
        { name: 'v1alpha1', served: true, storage: false, deprecated: true, deprecationWarning: 'gizmos/v1alpha1 goes away in 2.0' },
        { name: 'v1beta1', served: true, storage: false, deprecated: true },
        { name: 'v1', served: true, storage: true },
        { name: 'v2', served: false, storage: false },
      ]),
    );
    expect(created.status).toBe(201);
    await untilStatus(on.b, '/apis/tools.example.com/v1beta1/gizmos', 200);
    const warning = (text: string) => `299 - ${JSON.stringify(text)}`;
    const made = await call(on.b, 'POST', '/apis/tools.example.com/v1beta1/gizmos', { metadata: { name: 'g' }, spec: { size: 1 } });
    expect(made.status).toBe(201);
    expect(made.headers.get('warning')).toBe(warning('tools.example.com/v1beta1 Gizmo is deprecated; use tools.example.com/v1 Gizmo'));
    const listed = await call(on.b, 'GET', '/apis/tools.example.com/v1alpha1/gizmos');
    expect(listed.headers.get('warning')).toBe(warning('gizmos/v1alpha1 goes away in 2.0'));
    expect((await call(on.b, 'GET', '/apis/tools.example.com/v1/gizmos/g')).headers.get('warning')).toBeNull();
  });
});

describe('the v1beta1 form', () => {
  const V1BETA1 = '/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions';
  it('takes a definition as 1.7 wrote it (one version, top-level schema and columns), stores it as v1, and writes both forms', async () => {
    const created = await call(on.a, 'POST', V1BETA1, {
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.legacy.example.com' },
      spec: {
        group: 'legacy.example.com',
        version: 'v1',
        scope: 'Namespaced',
        names: { plural: 'gadgets', kind: 'Gadget' },
        validation: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 2 } } } } } },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      spec: {
        version: 'v1',
        validation: { openAPIV3Schema: { type: 'object' } },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    });
    const asV1 = (await call(on.b, 'GET', `${CRDS}/gadgets.legacy.example.com`)).json;
    expect(asV1.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(asV1.spec).not.toHaveProperty('version');
    expect(asV1.spec.versions[0]).toMatchObject({ name: 'v1', schema: { openAPIV3Schema: { type: 'object' } }, additionalPrinterColumns: [{ jsonPath: '.spec.size' }] });
    await untilStatus(on.b, '/apis/legacy.example.com/v1/namespaces/default/gadgets', 200);
    const gadget = await call(on.b, 'POST', '/apis/legacy.example.com/v1/namespaces/default/gadgets', { metadata: { name: 'g' }, spec: {} });
    expect(gadget.json.spec).toEqual({ size: 2 });
    const listed = (await call(on.a, 'GET', V1BETA1)).json;
    expect(listed.items.find((i: any) => i.metadata.name === 'gadgets.legacy.example.com').spec.version).toBe('v1');
    const patched = await call(on.a, 'PATCH', `${V1BETA1}/gadgets.legacy.example.com`, JSON.stringify({ spec: { names: { shortNames: ['gd'] } } }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    expect(patched.json.spec.version).toBe('v1');
    expect((await call(on.b, 'GET', `${CRDS}/gadgets.legacy.example.com`)).json.spec.names.shortNames).toEqual(['gd']);
    expect((await call(on.a, 'GET', '/apis/apiextensions.k8s.io')).json.preferredVersion.version).toBe('v1');
  });
});

describe('a definition of a resource that is served already', () => {
  it('is stored but not served, and its deletion leaves the objects of the resource alone', async () => {
    const impostor = await call(on.a, 'POST', CRDS, {
      metadata: { name: 'customresourcedefinitions.apiextensions.k8s.io' },
      spec: {
        group: 'apiextensions.k8s.io',
        scope: 'Cluster',
        names: { plural: 'customresourcedefinitions', kind: 'Impostor' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    expect(impostor.status).toBe(201);
    const tpr = await call(on.a, 'POST', '/apis/extensions/v1beta1/thirdpartyresources', { metadata: { name: 'cron-tab.stable.example.com' }, versions: [{ name: 'v2' }] });
    expect(tpr.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const conditions = (await call(on.b, 'GET', `${CRDS}/customresourcedefinitions.apiextensions.k8s.io`)).json.status.conditions;
    expect(conditions.map((c: any) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['NamesAccepted', 'False', 'PluralConflict', '"customresourcedefinitions.apiextensions.k8s.io" is already in use'],
      ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
    ]);
    for (const server of [on.a, on.b]) {
      expect((await call(server, 'GET', CRDS)).json.kind).toBe('CustomResourceDefinitionList');
      expect((await call(server, 'GET', '/apis/stable.example.com/v2/namespaces/default/crontabs')).status).toBe(404);
    }
    expect((await call(on.b, 'DELETE', `${CRDS}/customresourcedefinitions.apiextensions.k8s.io`)).status).toBe(200);
    await untilStatus(on.a, `${CRDS}/customresourcedefinitions.apiextensions.k8s.io`, 404);
    expect((await call(on.b, 'DELETE', '/apis/extensions/v1beta1/thirdpartyresources/cron-tab.stable.example.com')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(on.a, 'GET', `${CRDS}/crontabs.stable.example.com`)).status).toBe(200);
    expect((await call(on.b, 'GET', `${CRONTABS}/first`)).status).toBe(200);
  });
});

describe('deleting a definition', () => {
  it('deletes its objects, which watchers on both instances see, then the definition and its API', async () => {
    const watchA = await WatchClient.open(on.a.url, `${CRONTABS}?watch=true`);
    const watchB = await WatchClient.open(on.b.url, '/apis/stable.example.com/v1/watch/crontabs');
    await watchA.count(2);
    await watchB.count(2);
    const deleted = await call(on.b, 'DELETE', `${CRDS}/crontabs.stable.example.com`);
    expect(deleted.status).toBe(200);
    expect(deleted.json.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(deleted.json.metadata.deletionTimestamp).toEqual(expect.any(String));
    for (const watch of [watchA, watchB]) {
      const events = await watch.count(4);
      expect(events.slice(2).map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['DELETED first', 'DELETED second']);
      watch.close();
    }
    await untilStatus(on.a, `${CRDS}/crontabs.stable.example.com`, 404);
    await untilStatus(on.a, CRONTABS, 404);
    await untilStatus(on.b, CRONTABS, 404);
    expect((await call(on.a, 'GET', '/apis')).json.groups.map((g: any) => g.name)).not.toContain('stable.example.com');
    expect(await on.a.sql("SELECT name FROM objects WHERE api_group = 'stable.example.com'")).toEqual([]);
  });

  it('waits for the finalizers of its objects, refusing new objects meanwhile', async () => {
    const widgets = '/apis/tools.example.com/v1/widgets';
    const held = await call(on.a, 'POST', widgets, { metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { size: 1 } });
    expect(held.status).toBe(201);
    expect((await call(on.a, 'DELETE', `${CRDS}/widgets.tools.example.com`)).status).toBe(200);
    for (let i = 0; ; i++) {
      const crd = (await call(on.b, 'GET', `${CRDS}/widgets.tools.example.com`)).json;
      const terminating = crd.status.conditions.find((c: any) => c.type === 'Terminating');
      const w = (await call(on.b, 'GET', `${widgets}/held`)).json;
      if (terminating && w.metadata.deletionTimestamp) {
        expect(terminating).toMatchObject({ status: 'True', reason: 'InstanceDeletionInProgress' });
        break;
      }
      if (i > 100) throw new Error('the definition is not terminating');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (let i = 0; (await call(on.b, 'POST', `${widgets}?dryRun=All`, { metadata: { name: 'new' } })).status !== 405; i++) {
      if (i > 100) throw new Error('new objects are still accepted');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await call(on.a, 'GET', `${CRDS}/widgets.tools.example.com`)).status).toBe(200); // still held
    const current = (await call(on.a, 'GET', `${widgets}/held`)).json;
    expect((await call(on.a, 'PUT', `${widgets}/held`, { ...current, metadata: { ...current.metadata, finalizers: [] } })).status).toBe(200);
    await untilStatus(on.a, `${CRDS}/widgets.tools.example.com`, 404);
    await untilStatus(on.b, widgets, 404);
  });
});
