import { computeHash, safeEncodeString } from '../../src/controllers/deployment/pod-template-hash';
import {
  equalIgnoreHash,
  lastRevision,
  maxSurge,
  maxUnavailable,
  scaledValue,
  setNewReplicaSetAnnotations,
  setTemplateAndAnnotationsFrom,
} from '../../src/controllers/deployment/replica-sets';
import { Deployment } from '../../src/apis/extensions/deployment/deployment.schema';
import { ReplicaSet } from '../../src/apis/extensions/replicaset/replicaset.schema';

const deployment = (spec: Deployment['spec'], annotations?: Record<string, string>): Deployment => ({ metadata: { name: 'web', annotations }, spec });
const replicaSet = (revision: string | undefined, annotations: Record<string, string> = {}): ReplicaSet => ({
  metadata: { name: `rs-${revision}`, annotations: revision === undefined ? annotations : { ...annotations, 'deployment.kubernetes.io/revision': revision } },
});

describe('the pod-template-hash', () => {
  it('safe-encodes each character of the decimal hash', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it('is FNV-32a of the canonical JSON, then of the collision count as four little-endian bytes', () => {
    expect(computeHash({})).toBe(safeEncodeString('1415952421'));
    expect(computeHash({})).toBe('5859f96865');
    expect(computeHash({}, 1)).toBe(safeEncodeString('2302809700'));
    expect(computeHash({ b: 1, a: { d: [1], c: 'x' } })).toBe(computeHash({ a: { c: 'x', d: [1] }, b: 1 }));
  });
});

describe('the replica set rules', () => {
  it('scales percentages up for the surge and down for unavailability, 1 unavailable when both are 0', () => {
    expect(scaledValue('25%', 3, true)).toBe(1);
    expect(scaledValue('25%', 3, false)).toBe(0);
    expect(() => scaledValue('abc', 3, true)).toThrow('invalid value for IntOrString');
    const rolling = (maxSurgeValue: number | string, maxUnavailableValue: number | string, replicas = 3) =>
      deployment({ replicas, template: {}, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: maxSurgeValue, maxUnavailable: maxUnavailableValue } } });
    expect([maxSurge(rolling('25%', '25%')), maxUnavailable(rolling('25%', '25%'))]).toEqual([1, 0]);
    expect([maxSurge(rolling(0, 0)), maxUnavailable(rolling(0, 0))]).toEqual([0, 1]);
    expect(maxUnavailable(rolling(0, 5, 2))).toBe(2);
    expect(maxSurge(deployment({ replicas: 3, template: {}, strategy: { type: 'Recreate' } }))).toBe(0);
  });

  it('compares templates but for the pod-template-hash label and empty maps and lists', () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x', env: [] }] } };
    const hashed = { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' }, annotations: {} }, spec: { containers: [{ name: 'a', image: 'x' }] } };
    expect(equalIgnoreHash(template, hashed)).toBe(true);
    expect(equalIgnoreHash(template, { ...hashed, spec: { containers: [{ name: 'a', image: 'y' }] } })).toBe(false);
  });

  it('finds the revision before the newest', () => {
    expect(lastRevision([replicaSet('3'), replicaSet('1'), replicaSet('2')])).toBe(2);
    expect(lastRevision([replicaSet('1')])).toBe(0);
  });

  it('raises the new ReplicaSet\'s revision, keeping the one it had in the revision history', () => {
    const d = deployment({ replicas: 2, template: {}, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }, {
      'kubernetes.io/change-cause': 'edit',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
      'deployment.kubernetes.io/revision': '3',
    });
    const rs = replicaSet('1', { 'deployment.kubernetes.io/revision-history': '0' });
    expect(setNewReplicaSetAnnotations(d, rs, 4, true)).toBe(true);
    expect(rs.metadata.annotations).toEqual({
      'kubernetes.io/change-cause': 'edit',
      'deployment.kubernetes.io/revision': '4',
      'deployment.kubernetes.io/revision-history': '0,1',
    });
    const fresh = replicaSet(undefined);
    setNewReplicaSetAnnotations(d, fresh, 1, false);
    expect(fresh.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/desired-replicas': '2', 'deployment.kubernetes.io/max-replicas': '3' });
  });

  it('rolls back to a ReplicaSet\'s template without its hash label, and to its annotations but the deployment\'s own', () => {
    const d = deployment({ template: { metadata: { labels: { app: 'web' } } } }, { 'deployment.kubernetes.io/revision': '3', note: 'new' });
    const rs: ReplicaSet = {
      metadata: { annotations: { note: 'old', 'deployment.kubernetes.io/revision': '1' } },
      spec: { template: { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } },
    };
    setTemplateAndAnnotationsFrom(d, rs);
    expect(d.spec?.template).toEqual({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x' }] } });
    expect(d.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '3', note: 'old' });
  });
});
