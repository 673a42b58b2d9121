import { KubeObject } from '../../apimachinery/meta/kube-object';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { POD_TEMPLATE_HASH_LABEL } from './pod-template-hash';
import { copyJson } from '../../apimachinery/meta/json-value';

/** The annotations the deployment controller keeps on Deployments and their ReplicaSets. */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';

/** Annotations of a Deployment never copied to its ReplicaSets, nor back on a rollback. */
const NOT_COPIED = new Set([
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
]);

/** Upstream's limit of the revision-history annotation, in characters. */
const REVISION_HISTORY_MAX_CHARS = 2000;

export const replicasOf = (rs: ReplicaSet): number => rs.spec?.replicas ?? 1;
export const desiredReplicas = (deployment: Deployment): number => deployment.spec?.replicas ?? 1;

/** An annotation's integer; undefined when it is absent or not an integer. */
function annotatedNumber(object: KubeObject, annotation: string): number | undefined {
  const text = object.metadata.annotations?.[annotation];
  return text !== undefined && /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** The revision of a ReplicaSet, 0 when it has none; undefined when the annotation is not a number. */
export function revisionOf(object: KubeObject): number | undefined {
  return object.metadata.annotations?.[REVISION_ANNOTATION] === undefined ? 0 : annotatedNumber(object, REVISION_ANNOTATION);
}

export const maxRevision = (sets: ReplicaSet[]): number => Math.max(0, ...sets.map((rs) => revisionOf(rs) ?? 0));

/** The revision before the newest (upstream's LastRevision). */
export function lastRevision(sets: ReplicaSet[]): number {
  let max = 0;
  let second = 0;
  for (const rs of sets) {
    const revision = revisionOf(rs) ?? 0;
    if (revision >= max) [max, second] = [revision, max];
    else if (revision > second) second = revision;
  }
  return second;
}

const timeOf = (object: KubeObject) => Date.parse(object.metadata.creationTimestamp ?? '') || 0;
const byName = (a: KubeObject, b: KubeObject) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0);

/** Oldest first, then by name (ReplicaSetsByCreationTimestamp). */
export const byCreation = (a: ReplicaSet, b: ReplicaSet) => timeOf(a) - timeOf(b) || byName(a, b);
/** Lowest revision first, then oldest (ReplicaSetsByRevision). */
export const byRevision = (a: ReplicaSet, b: ReplicaSet) => (revisionOf(a) ?? 0) - (revisionOf(b) ?? 0) || byCreation(a, b);
/** Largest first, then newest (ReplicaSetsBySizeNewer). */
export const bySizeNewer = (a: ReplicaSet, b: ReplicaSet) => replicasOf(b) - replicasOf(a) || byCreation(b, a);
/** Largest first, then oldest (ReplicaSetsBySizeOlder). */
export const bySizeOlder = (a: ReplicaSet, b: ReplicaSet) => replicasOf(b) - replicasOf(a) || byCreation(a, b);

export const active = (sets: (ReplicaSet | undefined)[]): ReplicaSet[] => sets.filter((rs): rs is ReplicaSet => !!rs && replicasOf(rs) > 0);

const sum = (sets: (ReplicaSet | undefined)[], count: (rs: ReplicaSet) => number) => sets.reduce((total, rs) => total + (rs ? count(rs) : 0), 0);
/** The replicas the ReplicaSets ask for. */
export const specReplicas = (sets: (ReplicaSet | undefined)[]) => sum(sets, replicasOf);
/** The replicas they report. */
export const actualReplicas = (sets: (ReplicaSet | undefined)[]) => sum(sets, (rs) => rs.status?.replicas ?? 0);
export const readyReplicas = (sets: (ReplicaSet | undefined)[]) => sum(sets, (rs) => rs.status?.readyReplicas ?? 0);
export const availableReplicas = (sets: (ReplicaSet | undefined)[]) => sum(sets, (rs) => rs.status?.availableReplicas ?? 0);

/** A copy of the template without the pod-template-hash label, empty maps and lists dropped as Go's semantic equality ignores them. */
function comparable(value: unknown, dropHash = true): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((item) => comparable(item, false));
  if (value === null || typeof value !== 'object') return value ?? undefined;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    let next = comparable(item, false);
    if (dropHash && key === 'metadata' && next && typeof next === 'object') {
      const labels = { ...((next as { labels?: Record<string, string> }).labels ?? {}) };
      delete labels[POD_TEMPLATE_HASH_LABEL];
      next = comparable({ ...next, labels }, false);
    }
    if (next !== undefined) out[key] = next;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Whether two pod templates are the same but for the pod-template-hash label (EqualIgnoreHash). */
export function equalIgnoreHash(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortedKeys(comparable(a))) === JSON.stringify(sortedKeys(comparable(b)));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, item]) => [key, sortedKeys(item)]));
}

/** The oldest ReplicaSet whose template is the Deployment's (FindNewReplicaSet). */
export function findNewReplicaSet(deployment: Deployment, sets: ReplicaSet[]): ReplicaSet | undefined {
  return [...sets].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, deployment.spec?.template));
}

/** Every ReplicaSet but the new one (FindOldReplicaSets' all). */
export const oldReplicaSets = (sets: ReplicaSet[], newRS: ReplicaSet | undefined) => sets.filter((rs) => rs.metadata.uid !== newRS?.metadata.uid);

/** The one active ReplicaSet, or the newest when none is (FindActiveOrLatest); none when several are active. */
export function activeOrLatest(newRS: ReplicaSet | undefined, olds: ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && olds.length === 0) return undefined;
  const newestFirst = [...olds].sort((a, b) => byCreation(b, a));
  const running = active([...newestFirst, newRS]);
  if (running.length === 0) return newRS ?? newestFirst[0];
  return running.length === 1 ? running[0] : undefined;
}

/** A count given as an integer or a percent of `total`, rounded up or down (GetScaledValueFromIntOrPercent). */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (value === undefined) return 0;
  const match = /^(\d+)%$/.exec(value);
  if (!match) throw new Error(`invalid value for IntOrString: invalid value "${value}": must be an integer or a percentage`);
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

const isRollingUpdate = (deployment: Deployment) => deployment.spec?.strategy?.type === 'RollingUpdate';

/** maxSurge rounded up and maxUnavailable rounded down, the latter 1 when both are 0 (ResolveFenceposts). */
function fenceposts(deployment: Deployment): { surge: number; unavailable: number } {
  const rollingUpdate = deployment.spec?.strategy?.rollingUpdate;
  const desired = desiredReplicas(deployment);
  const surge = scaledValue(rollingUpdate?.maxSurge, desired, true);
  const unavailable = scaledValue(rollingUpdate?.maxUnavailable, desired, false);
  return { surge, unavailable: surge === 0 && unavailable === 0 ? 1 : unavailable };
}

export const maxSurge = (deployment: Deployment): number => (isRollingUpdate(deployment) ? fenceposts(deployment).surge : 0);

export function maxUnavailable(deployment: Deployment): number {
  const desired = desiredReplicas(deployment);
  if (!isRollingUpdate(deployment) || desired === 0) return 0;
  return Math.min(fenceposts(deployment).unavailable, desired);
}

/** The size of a new ReplicaSet the strategy allows now (NewRSNewReplicas). */
export function newReplicaSetReplicas(deployment: Deployment, all: (ReplicaSet | undefined)[], newReplicas: number): number {
  const desired = desiredReplicas(deployment);
  if (deployment.spec?.strategy?.type === 'Recreate') return desired;
  if (!isRollingUpdate(deployment)) throw new Error(`deployment type ${deployment.spec?.strategy?.type} isn't supported`);
  const maxTotal = desired + maxSurge(deployment);
  const current = specReplicas(all);
  if (current >= maxTotal) return newReplicas;
  return newReplicas + Math.min(maxTotal - current, desired - newReplicas);
}

export const desiredReplicasAnnotation = (rs: ReplicaSet) => annotatedNumber(rs, DESIRED_REPLICAS_ANNOTATION);

/** Whether the new ReplicaSet has all the Deployment wants and all of it available (IsSaturated). */
export function isSaturated(deployment: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicas(deployment);
  return replicasOf(rs) === desired && desiredReplicasAnnotation(rs) === desired && (rs.status?.availableReplicas ?? 0) === desired;
}

/** The share of `toAdd` replicas a ReplicaSet gets in a proportional scaling (GetReplicaSetProportion). */
export function proportion(rs: ReplicaSet, deployment: Deployment, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const allowed = toAdd - added;
  const fraction = replicaSetFraction(rs, deployment);
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

function replicaSetFraction(rs: ReplicaSet, deployment: Deployment): number {
  const desired = desiredReplicas(deployment);
  if (desired === 0) return -replicasOf(rs);
  const maxReplicas = desired + maxSurge(deployment);
  const annotated = annotatedNumber(rs, MAX_REPLICAS_ANNOTATION);
  // without the annotation (a ReplicaSet edited by hand), the Deployment's size before the scaling
  const before = annotated ? annotated : deployment.status?.replicas ?? 0;
  if (before === 0) return 0;
  return Math.round((replicasOf(rs) * maxReplicas) / before) - replicasOf(rs);
}

/** Sets the replicas annotations; whether they changed (SetReplicasAnnotations). */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  const changed = annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
  annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
  annotations[MAX_REPLICAS_ANNOTATION] = String(max);
  return changed;
}

/** Copies the Deployment's annotations to its ReplicaSet but those it never copies; whether any changed. */
function copyAnnotations(deployment: Deployment, rs: ReplicaSet): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [key, value] of Object.entries(deployment.metadata.annotations ?? {})) {
    if (NOT_COPIED.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  return changed;
}

/**
 * The annotations of the Deployment's new ReplicaSet (SetNewReplicaSetAnnotations): the Deployment's, the revision
 * raised to `revision` (the one it had kept in the revision history, as on a rollback), and the replicas annotations
 * of a ReplicaSet about to be created. Whether any changed.
 */
export function setNewReplicaSetAnnotations(deployment: Deployment, rs: ReplicaSet, revision: number, exists: boolean): boolean {
  let changed = copyAnnotations(deployment, rs);
  const annotations = (rs.metadata.annotations ??= {});
  const oldText = annotations[REVISION_ANNOTATION];
  const old = revisionOf(rs);
  if (old === undefined) return false;
  if (old < revision) {
    annotations[REVISION_ANNOTATION] = String(revision);
    changed = true;
    if (oldText !== undefined) addToRevisionHistory(annotations, oldText);
  }
  if (!exists && setReplicasAnnotations(rs, desiredReplicas(deployment), desiredReplicas(deployment) + maxSurge(deployment))) changed = true;
  return changed;
}

function addToRevisionHistory(annotations: Record<string, string>, oldRevision: string): void {
  const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
  if (history === '') {
    annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
    return;
  }
  const revisions = history.split(',');
  let length = history.length + oldRevision.length + 1;
  let start = 0;
  while (length > REVISION_HISTORY_MAX_CHARS && start < revisions.length) length -= revisions[start++].length + 1;
  if (length <= REVISION_HISTORY_MAX_CHARS) annotations[REVISION_HISTORY_ANNOTATION] = [...revisions.slice(start), oldRevision].join(',');
}

/** Sets the Deployment's revision annotation; whether it changed. */
export function setDeploymentRevision(deployment: Deployment, revision: string): boolean {
  const annotations = (deployment.metadata.annotations ??= {});
  if (annotations[REVISION_ANNOTATION] === revision) return false;
  annotations[REVISION_ANNOTATION] = revision;
  return true;
}

/** A rollback: the Deployment takes the ReplicaSet's template, without the hash label, and its annotations. */
export function setTemplateAndAnnotationsFrom(deployment: Deployment, rs: ReplicaSet): void {
  const template = copyJson(rs.spec?.template ?? {});
  const labels = template.metadata?.labels;
  if (labels) delete labels[POD_TEMPLATE_HASH_LABEL];
  deployment.spec = { ...deployment.spec, template } as Deployment['spec'];
  const kept = Object.entries(deployment.metadata.annotations ?? {}).filter(([key]) => NOT_COPIED.has(key));
  const copied = Object.entries(rs.metadata.annotations ?? {}).filter(([key]) => !NOT_COPIED.has(key));
  deployment.metadata.annotations = Object.fromEntries([...kept, ...copied]);
}
