import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// fieldValidation on create, update and patch, as the current apiserver reads it; without it, Warn, as there.

const { call } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const COLLECTION = '/apis/extensions/v1beta1/namespaces/default/deployments';
const TEMPLATE = '"template":{"metadata":{"labels":{"app":"v"}},"spec":{"containers":[{"name":"c","image":"nginx","imagePullPolicy":"Always","colour":"red"}]}}';
const body = (name: string) => `{"metadata":{"name":"${name}"},"spec":{"replicas":1,"replicas":2,"wings":3,${TEMPLATE}}}`;
const post = (name: string, directive?: string) =>
  call('POST', `${COLLECTION}${directive === undefined ? '' : `?fieldValidation=${directive}`}`, body(name), { 'content-type': 'application/json' });

const UNKNOWN = ['unknown field "spec.template.spec.containers[0].colour"', 'unknown field "spec.wings"'];
const DUPLICATE = 'duplicate field "spec.replicas"';

it('drops unknown fields silently with Ignore, keeping the last of duplicate ones', async () => {
  const created = await post('ignored', 'Ignore');
  expect(created.status).toBe(201);
  expect(created.headers.get('warning')).toBeNull();
  expect(created.json.spec.replicas).toBe(2);
  expect(created.json.spec.wings).toBeUndefined();
});

it('warns of each unknown and duplicate field with Warn and by default, and writes the object without them', async () => {
  for (const [name, directive] of [['warned', 'Warn'], ['warned-by-default', undefined]]) {
    const created = await post(name as string, directive);
    expect(created.status).toBe(201);
    const warnings = (created.headers.get('warning') as string).split(', ');
    expect(warnings.sort()).toEqual([...UNKNOWN, DUPLICATE].map((w) => `299 - ${JSON.stringify(w)}`).sort());
    expect(created.json.spec.replicas).toBe(2);
    expect(created.json.spec.wings).toBeUndefined();
  }
});

it('fails a Strict write with every field in one strict decoding error, and writes nothing', async () => {
  const refused = await post('strict', 'Strict');
  expect(refused.status).toBe(400);
  expect(refused.json.reason).toBe('BadRequest');
  expect(refused.json.message).toMatch(/^Deployment in version "v1beta1" cannot be handled as a Deployment: strict decoding error: /);
  for (const problem of [...UNKNOWN, DUPLICATE]) expect(refused.json.message).toContain(problem);
  expect((await call('GET', `${COLLECTION}/strict`)).status).toBe(404);
});

it('checks a patch by the object it makes, and an update by its body', async () => {
  const patch = (directive: string) =>
    call('PATCH', `${COLLECTION}/ignored?fieldValidation=${directive}`, '{"spec":{"paused":true,"wingspan":1}}', {
      'content-type': 'application/merge-patch+json',
    });
  expect((await patch('Strict')).json.message).toContain('strict decoding error: unknown field "spec.wingspan"');
  expect((await patch('Warn')).headers.get('warning')).toBe('299 - "unknown field \\"spec.wingspan\\""');
  const current = (await call('GET', `${COLLECTION}/ignored`)).json;
  const update = await call('PUT', `${COLLECTION}/ignored?fieldValidation=Strict`, { ...current, extra: true });
  expect(update.status).toBe(400);
  expect(update.json.message).toContain('unknown field "extra"');
});

it('refuses a directive it does not know, as the apiserver validates its options', async () => {
  const refused = await post('unknown-directive', 'Loud');
  expect(refused.status).toBe(422);
  expect(refused.json.details).toMatchObject({ group: 'meta.k8s.io', kind: 'CreateOptions' });
  expect(refused.json.message).toContain('fieldValidation: Unsupported value: "Loud": supported values: "Ignore", "Strict", "Warn"');
});
