import { KubeObject } from '../../src/apimachinery/meta/kube-object';
import { APPS_V1_KINDS, APPS_V1BETA1_KINDS, APPS_V1BETA2_KINDS } from '../../src/apis/apps/apps.kinds';
import { EXTENSIONS_KINDS } from '../../src/apis/extensions/extensions.kinds';
import { decodeObject } from '../../src/registry/decode-object';
import { groupVersion, KindDefinition } from '../../src/registry/kind-definition';

const TIME = '2026-01-01T00:00:00Z';
const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] };
const template = {
  metadata: { creationTimestamp: null, labels: { app: 'web', tier: 'front' } },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] }], restartPolicy: 'Always' },
};
const metadata = (name: string) => ({ name, namespace: 'default', uid: `${name}-uid`, resourceVersion: '7', labels: { app: 'web' }, annotations: { note: 'kept' } });

/** Stored (extensions/v1beta1) objects with every field set, the fields only extensions has included. */
const STORED: Record<string, KubeObject> = {
  deployments: {
    kind: 'Deployment',
    apiVersion: 'extensions/v1beta1',
    metadata: metadata('web'),
    spec: {
      replicas: 3,
      selector,
      template,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 2 } },
      minReadySeconds: 5,
      revisionHistoryLimit: 4,
      paused: true,
      rollbackTo: { revision: 3 },
      progressDeadlineSeconds: 90,
    },
    status: {
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 1,
      unavailableReplicas: 2,
      conditions: [{ type: 'Available', status: 'True', lastUpdateTime: TIME, lastTransitionTime: TIME, reason: 'MinimumReplicasAvailable', message: 'ok' }],
      collisionCount: 1,
    },
  },
  replicasets: {
    kind: 'ReplicaSet',
    apiVersion: 'extensions/v1beta1',
    metadata: metadata('web-1'),
    spec: { replicas: 2, minReadySeconds: 3, selector, template },
    status: {
      replicas: 2,
      fullyLabeledReplicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 4,
      conditions: [{ type: 'ReplicaFailure', status: 'False', lastTransitionTime: TIME, reason: 'None', message: 'fine' }],
    },
  },
  daemonsets: {
    kind: 'DaemonSet',
    apiVersion: 'extensions/v1beta1',
    metadata: metadata('agent'),
    spec: {
      selector,
      template,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, maxSurge: 0 } },
      minReadySeconds: 4,
      templateGeneration: 6,
      revisionHistoryLimit: 7,
    },
    status: {
      currentNumberScheduled: 3,
      numberMisscheduled: 1,
      desiredNumberScheduled: 3,
      numberReady: 2,
      observedGeneration: 5,
      updatedNumberScheduled: 2,
      numberAvailable: 2,
      numberUnavailable: 1,
      collisionCount: 2,
      conditions: [{ type: 'Progressing', status: 'True', lastTransitionTime: TIME, reason: 'Rolling', message: 'rolling' }],
    },
  },
};

const DAEMON_SET_FIELDS_AFTER_17 = ['spec.updateStrategy.rollingUpdate.maxSurge', 'status.conditions'];

/** The stored form with none of extensions' own fields set (a Deployment never rolled back). */
const withoutOwnFields = (resource: string): KubeObject => {
  const object = structuredClone(STORED[resource]);
  const spec = object.spec as Record<string, unknown>;
  delete spec.rollbackTo;
  return object;
};

const ALL = [...EXTENSIONS_KINDS, ...APPS_V1_KINDS, ...APPS_V1BETA2_KINDS, ...APPS_V1BETA1_KINDS];
const versionsOf = (resource: string) => ALL.filter((def) => def.resource === resource);

const served = (def: KindDefinition, stored: KubeObject) => (def.conversion ? def.conversion.fromStored(stored) : structuredClone(stored));
const toStored = (def: KindDefinition, object: KubeObject) => (def.conversion ? def.conversion.toStored(object) : structuredClone(object));

const PAIRS = ['deployments', 'replicasets', 'daemonsets'].flatMap((resource) =>
  versionsOf(resource).flatMap((from) => versionsOf(resource).map((to) => ({ resource, from: groupVersion(from), to: groupVersion(to), fromDef: from, toDef: to }))),
);

describe.each(PAIRS)('$resource: $from → $to', ({ resource, fromDef, toDef }) => {
  it.each([
    ['with every field', STORED[resource]],
    ['without extensions’ own fields', withoutOwnFields(resource)],
  ])('loses nothing %s, either way', (_, stored) => {
    const before = structuredClone(stored);
    const inFrom = served(fromDef, stored);
    const inTo = served(toDef, toStored(fromDef, inFrom));
    expect(toStored(toDef, inTo)).toEqual(stored);
    expect(served(fromDef, toStored(toDef, inTo))).toEqual(inFrom);
    expect(stored).toEqual(before); // conversions do not change what they are given
  });

  it('gives only fields of the version’s shape, in its apiVersion', () => {
    const object = served(toDef, STORED[resource]);
    expect(object.apiVersion).toBe(groupVersion(toDef));
    const unknown: string[] = [];
    decodeObject(toDef, object, unknown);
    // extensions/v1beta1 is served as 1.7 served it: the later releases' fields stay in the stored body only
    const later = resource === 'daemonsets' && toDef.group === 'extensions' ? DAEMON_SET_FIELDS_AFTER_17 : [];
    expect(unknown).toEqual(later);
  });
});

describe('extensions’ own fields in the other versions', () => {
  const byVersion = (resource: string, gv: string) => versionsOf(resource).find((def) => groupVersion(def) === gv)!;

  it('keeps a Deployment’s rollbackTo in the annotation of apps/v1 and v1beta2, and in the field of apps/v1beta1', () => {
    for (const gv of ['apps/v1', 'apps/v1beta2']) {
      const object = served(byVersion('deployments', gv), STORED.deployments) as any;
      expect(object.metadata.annotations).toEqual({ note: 'kept', 'deprecated.deployment.rollback.to': '3' });
      expect(object.spec.rollbackTo).toBeUndefined();
    }
    const beta1 = served(byVersion('deployments', 'apps/v1beta1'), STORED.deployments) as any;
    expect(beta1.spec.rollbackTo).toEqual({ revision: 3 });
    expect(beta1.metadata.annotations).toEqual({ note: 'kept' });
  });

  it('writes a DaemonSet’s templateGeneration as an annotation always, and reads it back', () => {
    const def = byVersion('daemonsets', 'apps/v1');
    const object = served(def, STORED.daemonsets) as any;
    expect(object.metadata.annotations['deprecated.daemonset.template.generation']).toBe('6');
    const fresh = served(def, { ...STORED.daemonsets, metadata: { name: 'x' }, spec: { template } }) as any;
    expect(fresh.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '0' });
    expect(toStored(def, fresh)).toEqual({ ...STORED.daemonsets, metadata: { name: 'x' }, spec: { template, templateGeneration: 0 } });
  });

  it('refuses an annotation that is no integer, as upstream’s conversion fails', () => {
    const def = byVersion('deployments', 'apps/v1');
    const object = { ...served(def, STORED.deployments), metadata: { name: 'web', annotations: { 'deprecated.deployment.rollback.to': 'x' } } };
    expect(() => def.conversion!.toStored(object)).toThrow(/failed to parse annotation\[deprecated.deployment.rollback.to\]=x/);
  });
});
