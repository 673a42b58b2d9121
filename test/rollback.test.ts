import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// what the request itself records on the Deployment is checked: no deployment controller acts on it here (its
// rollback is tested in deployment-controller.test.ts)
const { call } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const deployment = kindNamed('Deployment');
const web = itemPath(deployment, 'web');

beforeEach(() => call('POST', collectionPath(deployment), deployment.manifest));
afterEach(() => call('DELETE', `${web}?propagationPolicy=Background`));

describe('deployments/{name}/rollback', () => {
  it('records the revision and annotations, answers 201 with a Status saying 200, and keeps the generation', async () => {
    const before = (await call('GET', web)).json;
    const response = await call('POST', `${web}/rollback`, {
      kind: 'DeploymentRollback',
      apiVersion: 'extensions/v1beta1',
      name: 'web',
      updatedAnnotations: { 'kubernetes.io/change-cause': 'rollback to 2' },
      rollbackTo: { revision: 2 },
    });
    expect(response.status).toBe(201);
    expect(response.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      message: 'rollback request for deployment "web" succeeded',
      code: 200,
    });
    const after = (await call('GET', web)).json;
    expect(after.spec.rollbackTo).toEqual({ revision: 2 });
    expect(after.metadata.annotations).toEqual({ 'kubernetes.io/change-cause': 'rollback to 2' });
    expect(after.metadata.generation).toBe(before.metadata.generation);
    expect(BigInt(after.metadata.resourceVersion)).toBeGreaterThan(BigInt(before.metadata.resourceVersion));
  });

  it('writes revision 0 (the previous one) as an empty rollbackTo', async () => {
    const response = await call('POST', `${web}/rollback`, { name: 'web', rollbackTo: {} });
    expect(response.status).toBe(201);
    expect((await call('GET', web)).json.spec.rollbackTo).toEqual({});
  });

  it.each([
    [{ rollbackTo: { revision: 1 } }, 'name', 'Required value: name is required'],
    [{ name: 'web', rollbackTo: { revision: -1 } }, 'rollback.version', 'Invalid value: -1: must be greater than or equal to 0'],
    [{ name: 'web', updatedAnnotations: { 'bad key': 'x' }, rollbackTo: {} }, 'updatedAnnotations', 'Invalid value: "bad key"'],
  ])('refuses %j with 422 DeploymentRollback.extensions at %s', async (body, field, message) => {
    const response = await call('POST', `${web}/rollback`, body);
    expect(response.status).toBe(422);
    expect(response.json.details.kind).toBe('DeploymentRollback');
    expect(response.json.message).toMatch(/^DeploymentRollback\.extensions "(web)?" is invalid: /);
    const cause = response.json.details.causes.find((c: any) => c.field === field);
    expect(cause.message).toContain(message);
    expect((await call('GET', web)).json.spec.rollbackTo).toBeUndefined();
  });

  it('refuses a body naming another deployment with 400', async () => {
    const response = await call('POST', `${web}/rollback`, { name: 'other', rollbackTo: { revision: 1 } });
    expect(response.status).toBe(400);
    expect(response.json.message).toBe('the name of the object (other) does not match the name on the URL (web)');
  });

  it('answers 404 for a missing deployment and 405 for other methods', async () => {
    const missing = await call('POST', `${itemPath(deployment, 'gone')}/rollback`, { name: 'gone', rollbackTo: {} });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('deployments.extensions "gone" not found');
    expect((await call('GET', `${web}/rollback`)).status).toBe(405);
    expect((await call('PUT', `${web}/rollback`, { name: 'web' })).status).toBe(405);
  });

  it('a later spec update keeps the recorded rollback until a client clears it', async () => {
    await call('POST', `${web}/rollback`, { name: 'web', rollbackTo: { revision: 3 } });
    const current = (await call('GET', web)).json;
    const replaced = await call('PUT', web, { ...current, spec: { ...current.spec, replicas: 4 } });
    expect(replaced.json.spec.rollbackTo).toEqual({ revision: 3 });
    expect(replaced.json.metadata.generation).toBe(current.metadata.generation + 1);
  });
});
