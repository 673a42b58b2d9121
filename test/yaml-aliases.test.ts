import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';

const { call } = useTestServer();
const DEPLOYMENT = kindNamed('Deployment');

/** Nine lines whose aliases expand to 9^9 (387 million) strings. */
const ALIAS_BOMB = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
].join('\n');

describe('YAML aliases', () => {
  it.each([
    ['a create', 'POST', collectionPath(DEPLOYMENT), 'application/yaml'],
    ['a server-side apply', 'PATCH', `${itemPath(DEPLOYMENT, 'bomb')}?fieldManager=test`, 'application/apply-patch+yaml'],
  ])('refuse %s whose aliases expand beyond reason with a 400', async (_what, method, path, type) => {
    const response = await call(method, path, ALIAS_BOMB, { 'content-type': type });
    expect(response.status).toBe(400);
    expect(response.json.message).toContain('excessive aliasing');
  });

  it('are expanded where they stay small', async () => {
    const text = [
      'apiVersion: extensions/v1beta1',
      'kind: Deployment',
      'metadata: {name: aliased, labels: &labels {app: aliased}}',
      'spec:',
      '  template:',
      '    metadata: {labels: *labels}',
      '    spec: {containers: [{name: c, image: nginx}]}',
    ].join('\n');
    const response = await call('POST', collectionPath(DEPLOYMENT), text, { 'content-type': 'application/yaml' });
    expect(response.status).toBe(201);
    expect(response.json.spec.template.metadata.labels).toEqual({ app: 'aliased' });
  });
});
