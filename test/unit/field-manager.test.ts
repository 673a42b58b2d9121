import { StatusError } from '../../src/apimachinery/errors/status-error';
import { KubeObject } from '../../src/apimachinery/meta/kube-object';
import { structType } from '../../src/fieldmanager/apply-type';
import { FieldManager, LAST_APPLIED_ANNOTATION } from '../../src/fieldmanager/field-manager';
import { FieldSet } from '../../src/fieldmanager/field-set';
import { compare, fieldSetOf, merge } from '../../src/fieldmanager/typed-value';
import { kindShape } from '../support/served-types';

/**
 * The rules of structured merge (kubernetes-sigs/structured-merge-diff, and the Kubernetes documentation of
 * server-side apply) on the Deployment's schema: how fields are written as FieldsV1, which lists merge by key, as
 * sets or whole, who owns what after each operation, when an apply conflicts and what it removes.
 */
const TYPE = structType(kindShape('extensions/v1beta1', 'Deployment'));
const APPS = 'extensions/v1beta1';

const deployment = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: APPS,
  kind: 'Deployment',
  metadata: { name: 'web', ...metadata },
  spec,
});

const template = (containers: unknown[]) => ({ template: { metadata: { labels: { app: 'web' } }, spec: { containers } } });

const entries = (object: KubeObject) => object.metadata.managedFields ?? [];
const entryOf = (object: KubeObject, manager: string) => entries(object).find((e) => e.manager === manager);

describe('field sets and FieldsV1', () => {
  it('writes members as {} and a member that has children with a "." key, keys of list items as sorted JSON', () => {
    const set = fieldSetOf(
      deployment({ replicas: 2, selector: { matchLabels: { app: 'web' } }, ...template([{ name: 'nginx', image: 'nginx:1', ports: [{ protocol: 'UDP', containerPort: 53 }] }]) }, { labels: { app: 'web' }, finalizers: ['a'] }),
      TYPE,
    );
    expect(set.toFieldsV1()).toEqual({
      'f:apiVersion': {},
      'f:kind': {},
      'f:metadata': { 'f:finalizers': { 'v:"a"': {} }, 'f:labels': { 'f:app': {} }, 'f:name': {} },
      'f:spec': {
        'f:replicas': {},
        // LabelSelector is an atomic struct: owned as one field
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': { 'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
              },
            },
          },
        },
      },
    });
  });

  it('reads FieldsV1 back into the same set, and refuses what is not FieldsV1', () => {
    const fields = { 'f:spec': { 'f:replicas': {}, 'f:template': { '.': {}, 'f:metadata': {} } } };
    const set = FieldSet.fromFieldsV1(fields) as FieldSet;
    expect(set.toFieldsV1()).toEqual(fields);
    expect(set.has(['f:spec', 'f:template'])).toBe(true);
    expect(set.has(['f:spec'])).toBe(false);
    expect(FieldSet.fromFieldsV1({ 'spec': {} })).toBeUndefined();
    expect(FieldSet.fromFieldsV1({ 'f:spec': 1 })).toBeUndefined();
  });

  it('keys a port without a protocol by the protocol the apiserver defaults (TCP)', () => {
    const set = fieldSetOf(deployment(template([{ name: 'a', ports: [{ containerPort: 80 }] }])), TYPE);
    expect(set.has(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}', 'f:ports', 'k:{"containerPort":80,"protocol":"TCP"}'])).toBe(true);
  });

  it('set operations', () => {
    const a = FieldSet.of(['f:a'], ['f:b', 'f:c'], ['f:b', 'f:d']);
    const b = FieldSet.of(['f:b', 'f:c'], ['f:e']);
    expect(a.union(b).paths()).toEqual([['f:a'], ['f:b', 'f:c'], ['f:b', 'f:d'], ['f:e']]);
    expect(a.difference(b).paths()).toEqual([['f:a'], ['f:b', 'f:d']]);
    expect(a.intersection(b).paths()).toEqual([['f:b', 'f:c']]);
    expect(a.withoutPrefixes(FieldSet.of(['f:b'])).paths()).toEqual([['f:a']]);
    // read against a FieldsV1 tree as stored: a member there is {} or has "."
    expect(FieldSet.of(['f:b', 'f:c']).meets({ 'f:b': { 'f:c': {} } })).toBe(true);
    expect(FieldSet.of(['f:b']).meets({ 'f:b': { 'f:c': {} } })).toBe(false);
    expect(FieldSet.of(['f:b']).meets({ 'f:b': { '.': {}, 'f:c': {} } })).toBe(true);
  });
});

describe('merge', () => {
  it('merges keyed lists item by item, in the configuration order, keeping items only the object has where they stood', () => {
    const live = deployment(template([{ name: 'a', image: 'a:1' }, { name: 'side', image: 's' }, { name: 'b', image: 'b:1' }]));
    const config = deployment(template([{ name: 'b', image: 'b:2' }, { name: 'c', image: 'c:1' }, { name: 'a', image: 'a:2' }]));
    const merged = merge(live, config, TYPE) as any;
    expect(merged.spec.template.spec.containers).toEqual([
      { name: 'b', image: 'b:2' },
      { name: 'c', image: 'c:1' },
      { name: 'a', image: 'a:2' },
      { name: 'side', image: 's' },
    ]);
  });

  it('replaces atomic lists and structs whole, unions sets, merges maps', () => {
    const live = deployment(
      { selector: { matchLabels: { a: '1' }, matchExpressions: [{ key: 'x', operator: 'Exists' }] }, ...template([{ name: 'a', command: ['x', 'y'] }]) },
      { labels: { a: '1' }, finalizers: ['f1'] },
    );
    const config = deployment({ selector: { matchLabels: { b: '2' } }, ...template([{ name: 'a', command: ['z'] }]) }, { labels: { b: '2' }, finalizers: ['f2'] });
    const merged = merge(live, config, TYPE) as any;
    expect(merged.spec.selector).toEqual({ matchLabels: { b: '2' } });
    expect(merged.spec.template.spec.containers[0].command).toEqual(['z']);
    expect(merged.metadata.labels).toEqual({ a: '1', b: '2' });
    expect(merged.metadata.finalizers).toEqual(['f1', 'f2']);
  });
});

describe('compare', () => {
  it('reports added paths with everything below them, modified leaves, removed paths', () => {
    const before = deployment({ replicas: 1, ...template([{ name: 'a', image: 'a:1' }]) });
    const after = deployment({ replicas: 2, ...template([{ name: 'b', image: 'b:1' }]) });
    const c = compare(before, after, TYPE);
    const containers = ['f:spec', 'f:template', 'f:spec', 'f:containers'];
    expect(c.modified.paths()).toEqual([['f:spec', 'f:replicas']]);
    expect(c.added.paths()).toEqual([[...containers, 'k:{"name":"b"}'], [...containers, 'k:{"name":"b"}', 'f:image'], [...containers, 'k:{"name":"b"}', 'f:name']]);
    expect(c.removed.paths()).toEqual([[...containers, 'k:{"name":"a"}'], [...containers, 'k:{"name":"a"}', 'f:image'], [...containers, 'k:{"name":"a"}', 'f:name']]);
  });
});

describe('FieldManager', () => {
  const manager = new FieldManager({ type: TYPE, apiVersion: APPS, reset: FieldSet.of(['f:status']) });
  const apply = (live: KubeObject | undefined, config: KubeObject, name: string, force = false) =>
    manager.apply(live && structuredClone(live), structuredClone(config), name, force);
  const conflictOf = (run: () => unknown): StatusError => {
    try {
      run();
    } catch (error) {
      if (error instanceof StatusError) return error;
      throw error;
    }
    throw new Error('no conflict');
  };

  it('records an Update entry for what a write changed, leaving out what the server sets and what the path resets', () => {
    const created = deployment({ replicas: 1 }, { uid: 'u', labels: { app: 'web' } });
    created.status = { replicas: 0 };
    manager.update(undefined, created, 'kubectl-create');
    const entry = entryOf(created, 'kubectl-create');
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: APPS, fieldsType: 'FieldsV1' });
    expect(entry?.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // a map added is a member with its keys; a struct is implied by its fields
    expect(entry?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } });

    const next = structuredClone(created);
    (next.spec as any).replicas = 3;
    manager.update(created, next, 'scaler');
    expect(entryOf(next, 'scaler')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    // the field moved to the manager that last changed it
    expect(entryOf(next, 'kubectl-create')?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
  });

  it('leaves untracked an existing object nobody tracks, and resets the entries when a write sends an empty list', () => {
    const live = deployment({ replicas: 1 }, { uid: 'u' });
    const next = deployment({ replicas: 2 }, { uid: 'u' });
    manager.update(live, next, 'someone');
    expect(next.metadata.managedFields).toBeUndefined();

    const tracked = deployment({ replicas: 1 });
    manager.update(undefined, tracked, 'creator');
    const reset = { ...structuredClone(tracked), metadata: { ...tracked.metadata, managedFields: [] } };
    manager.update(tracked, reset, 'someone');
    expect(reset.metadata.managedFields).toBeUndefined();
  });

  it('an apply owns what it applies; applying the same value as another manager shares the field', () => {
    const first = apply(undefined, deployment({ replicas: 2 }), 'alice');
    expect(first.spec).toEqual({ replicas: 2 });
    expect(entryOf(first, 'alice')).toMatchObject({ operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(entryOf(first, 'alice')).not.toHaveProperty('subresource');
    const shared = apply(first, deployment({ replicas: 2 }), 'bob');
    expect(entryOf(shared, 'alice')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(entryOf(shared, 'bob')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('a different value for a field another manager owns is a conflict naming the field and the manager; force takes it', () => {
    const first = apply(undefined, deployment({ replicas: 2, minReadySeconds: 5 }), 'alice');
    const conflict = conflictOf(() => apply(first, deployment({ replicas: 3, minReadySeconds: 6 }), 'bob'));
    expect(conflict.code).toBe(409);
    expect(conflict.reason).toBe('Conflict');
    expect(conflict.message).toBe('Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.minReadySeconds\n- .spec.replicas');
    expect(conflict.details?.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.minReadySeconds' },
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' },
    ]);

    const one = conflictOf(() => apply(first, deployment({ replicas: 3 }), 'bob'));
    expect(one.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');

    const forced = apply(first, deployment({ replicas: 3 }), 'bob', true);
    expect((forced.spec as any).replicas).toBe(3);
    expect(entryOf(forced, 'alice')?.fieldsV1).toEqual({ 'f:spec': { 'f:minReadySeconds': {} } });
    expect(entryOf(forced, 'bob')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('names an updater in a conflict with its API version', () => {
    const created = deployment({ replicas: 1 });
    manager.update(undefined, created, 'kubectl-create');
    const conflict = conflictOf(() => apply(created, deployment({ replicas: 4 }), 'bob'));
    expect(conflict.message).toBe(`Apply failed with 1 conflict: conflict with "kubectl-create" using ${APPS}: .spec.replicas`);
  });

  it('removes fields a manager stops applying, unless another manager owns them', () => {
    const config = deployment({ replicas: 2, minReadySeconds: 5, ...template([{ name: 'a', image: 'a' }, { name: 'b', image: 'b' }]) }, { labels: { x: '1', y: '2' } });
    const first = apply(undefined, config, 'alice');
    const withBob = apply(first, deployment({ minReadySeconds: 5 }, { labels: { y: '2' } }), 'bob');
    const second = apply(withBob, deployment({ replicas: 2, ...template([{ name: 'a', image: 'a' }]) }), 'alice');
    expect(second.spec).toEqual({ replicas: 2, minReadySeconds: 5, ...template([{ name: 'a', image: 'a' }]) });
    expect(second.metadata.labels).toEqual({ y: '2' });
    expect(entryOf(second, 'bob')?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:y': {} } }, 'f:spec': { 'f:minReadySeconds': {} } });
  });

  it('gives the fields of an object nobody tracked to before-first-apply, so an apply conflicts with them', () => {
    const live = deployment({ replicas: 1 }, { uid: 'u' });
    const conflict = conflictOf(() => apply(live, deployment({ replicas: 5 }), 'alice'));
    expect(conflict.message).toBe(`Apply failed with 1 conflict: conflict with "before-first-apply" using ${APPS}: .spec.replicas`);
  });

  it('lets kubectl take over the fields its client-side apply set, and keeps the annotation up to date', () => {
    const lastApplied = JSON.stringify({ apiVersion: APPS, kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } });
    const live = deployment({ replicas: 2, minReadySeconds: 1 }, { uid: 'u', annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } });
    manager.update(undefined, live, 'kubectl-client-side-apply');
    const applied = apply(live, deployment({ replicas: 3 }), 'kubectl');
    expect((applied.spec as any).replicas).toBe(3);
    expect(JSON.parse(applied.metadata.annotations?.[LAST_APPLIED_ANNOTATION] as string)).toEqual({
      apiVersion: APPS,
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 3 },
    });
    // a field the client-side apply did not set still conflicts
    const conflict = conflictOf(() => apply(live, deployment({ replicas: 3, minReadySeconds: 2 }), 'kubectl'));
    expect(conflict.message).toContain('.spec.minReadySeconds');
    // and another manager gets no such pass
    expect(conflictOf(() => apply(live, deployment({ replicas: 3 }), 'other')).code).toBe(409);
  });

  it('merges the oldest updaters into ancient-changes beyond ten', () => {
    let object = deployment({ replicas: 0 });
    manager.update(undefined, object, 'm0');
    for (let i = 1; i <= 11; i++) {
      const next = structuredClone(object);
      next.metadata.labels = { ...next.metadata.labels, [`l${i}`]: 'x' };
      manager.update(object, next, `m${i}`);
      object = next;
    }
    const names = entries(object).map((e) => e.manager);
    expect(names).toHaveLength(10);
    expect(names).toContain('ancient-changes');
  });
});
