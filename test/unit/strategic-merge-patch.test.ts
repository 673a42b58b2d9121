import { StatusError } from '../../src/apimachinery/errors/status-error';
import { applyStrategicMergePatch } from '../../src/apimachinery/patch/strategic-merge-patch';
import { typeFacts } from '../../src/apimachinery/patch/strategic-merge-schema';
import { kindShape } from '../support/served-types';

const DEPLOYMENT = typeFacts(kindShape('extensions/v1beta1', 'Deployment'));

const deployment = (containers: unknown[], extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'web', finalizers: ['a'], labels: { app: 'web' } },
  spec: { replicas: 1, template: { spec: { containers, ...extra } } },
});

const containersOf = (object: Record<string, any>) => object.spec.template.spec.containers;

describe('applyStrategicMergePatch', () => {
  const original = deployment([
    { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }] },
    { name: 'b', image: 'b:1' },
  ]);

  it('merges maps member by member and deletes members set to null', () => {
    const patched = applyStrategicMergePatch(original, { metadata: { labels: { app: null, tier: 'x' } }, spec: { replicas: 3 } }, DEPLOYMENT);
    expect(patched.metadata).toEqual({ name: 'web', finalizers: ['a'], labels: { tier: 'x' } });
    expect((patched.spec as any).replicas).toBe(3);
  });

  it('merges lists of objects by their merge key, recursively', () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'a', env: [{ name: 'Y', value: '2' }] }, { name: 'c', image: 'c:1' }] } } } };
    // without $setElementOrder, the patch's items come first, in the patch's order
    expect(containersOf(applyStrategicMergePatch(original, patch, DEPLOYMENT))).toEqual([
      { name: 'a', image: 'a:1', env: [{ name: 'Y', value: '2' }, { name: 'X', value: '1' }] },
      { name: 'c', image: 'c:1' },
      { name: 'b', image: 'b:1' },
    ]);
  });

  it('merges lists of primitives with the merge strategy as sets, and replaces other lists', () => {
    const withArgs = deployment([{ name: 'a', args: ['x', 'y'] }]);
    const patched = applyStrategicMergePatch(
      withArgs,
      { metadata: { finalizers: ['b', 'a'] }, spec: { template: { spec: { containers: [{ name: 'a', args: ['z'] }] } } } },
      DEPLOYMENT,
    );
    expect(patched.metadata).toMatchObject({ finalizers: ['b', 'a'] });
    expect(containersOf(patched)).toEqual([{ name: 'a', args: ['z'] }]);
  });

  it('deletes an item with $patch: delete, and replaces a list with $patch: replace', () => {
    const deleted = applyStrategicMergePatch(original, { spec: { template: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } } } }, DEPLOYMENT);
    expect(containersOf(deleted)).toEqual([{ name: 'b', image: 'b:1' }]);
    const replaced = applyStrategicMergePatch(
      original,
      { spec: { template: { spec: { containers: [{ name: 'z', image: 'z:1' }, { $patch: 'replace' }] } } } },
      DEPLOYMENT,
    );
    expect(containersOf(replaced)).toEqual([{ name: 'z', image: 'z:1' }]);
  });

  it('replaces a map with $patch: replace, and removes it with $patch: delete', () => {
    const replaced = applyStrategicMergePatch(original, { metadata: { labels: { only: 'this', $patch: 'replace' } } }, DEPLOYMENT);
    expect(replaced.metadata).toMatchObject({ labels: { only: 'this' } });
    const removed = applyStrategicMergePatch(original, { metadata: { labels: { $patch: 'delete' } } }, DEPLOYMENT);
    expect(removed.metadata).toEqual({ name: 'web', finalizers: ['a'], labels: {} });
  });

  it('removes primitives with $deleteFromPrimitiveList', () => {
    const patched = applyStrategicMergePatch(original, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }, DEPLOYMENT);
    expect(patched.metadata).not.toHaveProperty('finalizers.0');
  });

  it('orders merged items by $setElementOrder', () => {
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } } } };
    expect(containersOf(applyStrategicMergePatch(original, patch, DEPLOYMENT)).map((c: { name: string }) => c.name)).toEqual(['b', 'a']);
  });

  it('keeps only the $retainKeys of a map', () => {
    const withStrategy = { ...original, spec: { ...original.spec, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    const patched = applyStrategicMergePatch(withStrategy, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, DEPLOYMENT);
    expect((patched.spec as any).strategy).toEqual({ type: 'Recreate' });
  });

  it('refuses a list of lists merged into a list, which only an empty list can hold (400)', () => {
    const patch = { metadata: { ownerReferences: [[1]] } };
    expect(() => applyStrategicMergePatch({ metadata: { name: 'web', ownerReferences: [] } }, patch, DEPLOYMENT)).toThrow('lists of lists are not supported');
  });

  it('leaves the original unchanged', () => {
    const before = structuredClone(original);
    applyStrategicMergePatch(original, { spec: { template: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } } } }, DEPLOYMENT);
    expect(original).toEqual(before);
  });

  it.each([
    [[1], 'a strategic merge patch must be a JSON object'],
    [{ $patch: 'explode' }, 'unknown patch type: explode'],
    [{ spec: { template: { spec: { containers: [{ image: 'no-name' }] } } } }, 'does not contain declared merge key: name'],
    [{ spec: { template: { spec: { containers: 'x' } } } }, ''],
  ])('refuses %j with a 400', (patch, wording) => {
    let caught: unknown;
    try {
      applyStrategicMergePatch(original, patch, DEPLOYMENT);
    } catch (error) {
      caught = error;
    }
    if (wording === '') {
      // a list field given a scalar replaces it, as 1.7 does
      expect(caught).toBeUndefined();
      return;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).code).toBe(400);
    expect((caught as StatusError).message).toContain(wording);
  });
});
