import { nowTimestamp } from '../../apimachinery/meta/kube-object';
import { NamespaceCondition } from '../../apis/core/namespace/namespace.schema';

/** What one pass over a namespace's content found. */
export interface ContentTotals {
  /** objects left, by `<resource>.<group>` ('pods.' for the core group, as upstream words it) */
  remaining: Map<string, number>;
  /** objects left, by each finalizer they carry */
  finalizers: Map<string, number>;
  /** why deleting some resources failed */
  errors: string[];
}

type ConditionType =
  | 'NamespaceDeletionDiscoveryFailure'
  | 'NamespaceDeletionGroupVersionParsingFailure'
  | 'NamespaceDeletionContentFailure'
  | 'NamespaceContentRemaining'
  | 'NamespaceFinalizersRemaining';

/** The conditions the namespace controller keeps, in upstream's order, with the reason and message of each when all is well. */
const WHEN_FINE: Readonly<Record<ConditionType, { reason: string; message: string }>> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

const listed = (counts: Map<string, number>, item: (key: string, count: number) => string) =>
  [...counts].filter(([, count]) => count > 0).map(([key, count]) => item(key, count)).sort().join(', ');

/** The failing conditions the totals call for (the discovery and group version ones never fail here: kinds are known). */
function problems(totals: ContentTotals): Partial<Record<ConditionType, { reason: string; message: string }>> {
  const found: Partial<Record<ConditionType, { reason: string; message: string }>> = {};
  if (totals.errors.length > 0) {
    const errors = totals.errors.length === 1 ? totals.errors[0] : `[${totals.errors.join(', ')}]`;
    found.NamespaceDeletionContentFailure = {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${totals.errors.length} remaining: ${errors}`,
    };
  }
  const remaining = listed(totals.remaining, (resource, count) => `${resource} has ${count} resource instances`);
  if (remaining) found.NamespaceContentRemaining = { reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${remaining}` };
  const finalizers = listed(totals.finalizers, (finalizer, count) => `${finalizer} in ${count} resource instances`);
  if (finalizers) {
    found.NamespaceFinalizersRemaining = {
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${finalizers}`,
    };
  }
  return found;
}

/**
 * The namespace's conditions after a pass, as upstream's namespace controller writes them: each of its five types,
 * True with the problem or False with the fine reason, its lastTransitionTime kept while nothing about it changes;
 * conditions of other types are kept after them.
 */
export function conditionsAfter(current: readonly NamespaceCondition[], totals: ContentTotals): NamespaceCondition[] {
  const found = problems(totals);
  const ours = (Object.keys(WHEN_FINE) as ConditionType[]).map((type): NamespaceCondition => {
    const problem = found[type];
    const next = { type, status: problem ? 'True' : 'False', ...(problem ?? WHEN_FINE[type]) };
    const old = current.find((condition) => condition.type === type);
    const same = old && old.status === next.status && old.reason === next.reason && old.message === next.message;
    return { type, status: next.status, lastTransitionTime: same ? old.lastTransitionTime : nowTimestamp(), reason: next.reason, message: next.message };
  });
  return [...ours, ...current.filter((condition) => !((condition.type ?? '') in WHEN_FINE))];
}
