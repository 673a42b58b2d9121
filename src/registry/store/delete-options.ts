/** The DeleteOptions a delete was given, from its body or (when it has none) its query. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string };
  orphanDependents?: boolean;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  /** answer as the delete would, writing nothing */
  dryRun?: boolean;
}

export const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'] as const;
