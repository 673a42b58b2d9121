import { nowTimestamp } from '../../apimachinery/meta/kube-object';
import { Cluster } from '../../apis/federation/cluster/cluster.schema';

export type ClusterCondition = NonNullable<NonNullable<Cluster['status']>['conditions']>[number];

/**
 * What probing a cluster came to: `/healthz` answered `ok`, or answered something else, or the cluster could not be
 * reached (with why, when the controller could not even build its client from the Cluster and its Secret).
 */
export type ProbeOutcome = { kind: 'healthy' } | { kind: 'unhealthy' } | { kind: 'unreachable'; cause?: string };

type Observed = Pick<ClusterCondition, 'type' | 'status' | 'reason' | 'message'>;

const READY: Observed = { type: 'Ready', status: 'True', reason: 'ClusterReady', message: '/healthz responded with ok' };
const NOT_READY: Observed = { type: 'Ready', status: 'False', reason: 'ClusterNotReady', message: '/healthz responded without ok' };
const OFFLINE: Observed = { type: 'Offline', status: 'True', reason: 'ClusterNotReachable', message: 'cluster is not reachable' };
const NOT_OFFLINE: Observed = { type: 'Offline', status: 'False', reason: 'ClusterReachable', message: 'cluster is reachable' };

/**
 * Federation's conditions of a probe: Ready alone when healthy; Ready False and Offline False when `/healthz` answered
 * without `ok`; Offline alone when unreachable (federation then reports no Ready condition).
 */
function observed(outcome: ProbeOutcome): Observed[] {
  switch (outcome.kind) {
    case 'healthy':
      return [READY];
    case 'unhealthy':
      return [NOT_READY, NOT_OFFLINE];
    case 'unreachable':
      return [outcome.cause ? { ...OFFLINE, message: `${OFFLINE.message}: ${outcome.cause}` } : OFFLINE];
  }
}

const same = (a: string | undefined, b: string | undefined) => a?.toLowerCase() === b?.toLowerCase();

/**
 * The conditions after a probe, all probed now. As federation's cluster controller: when the conditions have the same
 * types and statuses, in the same order, as the `previous` ones, each keeps its transition time; otherwise they all
 * transition now.
 */
export function conditionsAfter(outcome: ProbeOutcome, previous: ClusterCondition[] = []): ClusterCondition[] {
  const now = nowTimestamp();
  const next = observed(outcome);
  const transitioned = next.length !== previous.length || next.some((c, i) => !same(c.type, previous[i].type) || !same(c.status, previous[i].status));
  return next.map((condition, i) => ({
    ...condition,
    lastProbeTime: now,
    lastTransitionTime: transitioned ? now : (previous[i].lastTransitionTime ?? now),
  }));
}
