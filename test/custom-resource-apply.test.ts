import { dump } from 'js-yaml';
import { useTestServer } from './support/api';
import { crontabCrd } from './support/crontab-definition';
import { untilStatus } from './support/two-instances';

const { call, server } = useTestServer();
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const TABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const TAB = `${TABS}/my-tab`;

const applyAs = (manager: string, spec: Record<string, unknown>) =>
  call('PATCH', `${TAB}?fieldManager=${manager}`, dump({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-tab' }, spec }), APPLY);

beforeAll(async () => {
  expect((await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crontabCrd())).status).toBe(201);
  await untilStatus(server(), TABS, 200);
});

describe('server-side apply of a custom object', () => {
  it("owns the fields its definition's schema declares, one by one, and list items by their map keys", async () => {
    expect((await applyAs('first', { cronSpec: '* * * * */5', replicas: 2, ports: [{ name: 'a', port: 1 }], args: ['x'] })).status).toBe(201);

    const conflict = await applyAs('second', { replicas: 3 });
    expect(conflict.status).toBe(409);
    expect(conflict.json.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.spec.replicas' }]);

    const merged = await applyAs('second', { ports: [{ name: 'b', port: 2 }] });
    expect(merged.status).toBe(200);
    expect(merged.json.spec.ports).toEqual([
      { name: 'a', port: 1 },
      { name: 'b', port: 2 },
    ]);
    const second = merged.json.metadata.managedFields.find((e: any) => e.manager === 'second');
    expect(second.fieldsV1).toEqual({ 'f:spec': { 'f:ports': { 'k:{"name":"b"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } });
    const first = merged.json.metadata.managedFields.find((e: any) => e.manager === 'first');
    // a list without x-kubernetes-list-type is atomic: owned whole
    expect(first.fieldsV1['f:spec']).toMatchObject({ 'f:cronSpec': {}, 'f:replicas': {}, 'f:args': {} });
  });
});
