import { deepEqual } from '../../../apimachinery/meta/deep-equal';
import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { defaultDaemonSet } from './daemonset.defaults';
import { DAEMON_SET, DaemonSet } from './daemonset.schema';
import { validateDaemonSet, validateDaemonSetStatus } from './daemonset.validation';

/**
 * DaemonSet. The server owns `spec.templateGeneration`: at least 1 on create, then the stored
 * value, raised by one whenever the template changes.
 */
export const DAEMON_SET_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: DAEMON_SET,
  status: {
    empty: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
    keepsLabels: false,
    validate: validateDaemonSetStatus,
  },
  generation: 'spec',
  orphanDependentsByDefault: true,
  applyDefaults: defaultDaemonSet,
  validate: validateDaemonSet,
  validateUpdate: validateDaemonSet,
  prepareForCreate(daemonSet: DaemonSet) {
    const spec = daemonSet.spec!;
    if (!spec.templateGeneration || spec.templateGeneration < 1) spec.templateGeneration = 1;
  },
  prepareForUpdate(daemonSet: DaemonSet, old: DaemonSet) {
    const spec = daemonSet.spec!;
    const stored = old.spec?.templateGeneration;
    if (stored === undefined) delete spec.templateGeneration;
    else spec.templateGeneration = deepEqual(spec.template, old.spec?.template) ? stored : stored + 1;
  },
});
