import { UserInfo } from '../../apimachinery/authentication/user-info';

/** The DeleteOptions a delete was given, from its body or (when it has none) its query, and who asks for it. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string };
  orphanDependents?: boolean;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  /** answer as the delete would, writing nothing */
  dryRun?: boolean;
  /** who asks for the delete (none for the server's own), whom the write admissions check */
  user?: UserInfo;
}

export const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'] as const;
