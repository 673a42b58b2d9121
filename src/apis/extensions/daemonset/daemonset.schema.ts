import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { described, FieldSpecs, LeafSchema, mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';

/** The fields of a version's DaemonSet that not every version has, by the struct they belong to. */
interface OwnFields<Spec extends FieldSpecs, RollingUpdate extends FieldSpecs, Status extends FieldSpecs> {
  spec: Spec;
  rollingUpdate: RollingUpdate;
  status: Status;
}

/**
 * The DaemonSet of a Go package (extensions/v1beta1, apps/v1beta2, v1): the same fields in each, with the version's
 * `own` in their place, and collisionCount 1.7's int64 or the later int32.
 */
export function daemonSetType<const Spec extends FieldSpecs, const RollingUpdate extends FieldSpecs, const Status extends FieldSpecs>(
  pkg: GoPackage,
  collisionCount: LeafSchema<'int32' | 'int64'>,
  own: OwnFields<Spec, RollingUpdate, Status>,
) {
  const rollingUpdate = pkg.struct('RollingUpdateDaemonSet', {
    maxUnavailable: [1, s.intOrString, described('Most nodes whose daemon pod may be unavailable during the update, as a count or a percentage.')],
    ...own.rollingUpdate,
  });
  const updateStrategy = pkg.struct('DaemonSetUpdateStrategy', {
    type: [1, s.string, described('How old pods are replaced: OnDelete or RollingUpdate.')],
    rollingUpdate: [2, rollingUpdate, described('Parameters of a rolling update.')],
  });
  const spec = pkg.struct('DaemonSetSpec', {
    selector: [1, LABEL_SELECTOR, described('Labels a pod must carry to be counted by this daemon set.')],
    template: [2, POD_TEMPLATE_SPEC, required, described('Template of the pod run on each node.')],
    updateStrategy: [3, updateStrategy, described('How old pods are replaced when the template changes.')],
    minReadySeconds: [4, s.int32, described('Seconds a new pod must stay ready to count as available.')],
    ...own.spec,
    revisionHistoryLimit: [6, s.int32, pointer, described('Number of old revisions kept for rollbacks; 10 by default.')],
  });
  const status = pkg.struct('DaemonSetStatus', {
    currentNumberScheduled: [1, s.int32, required, described('Number of nodes that run a daemon pod and should.')],
    numberMisscheduled: [2, s.int32, required, described('Number of nodes that run a daemon pod but should not.')],
    desiredNumberScheduled: [3, s.int32, required, described('Number of nodes that should run a daemon pod.')],
    numberReady: [4, s.int32, required, described('Number of nodes whose daemon pod is ready.')],
    observedGeneration: [5, s.int64, described('Generation of the object the controller last acted on.')],
    updatedNumberScheduled: [6, s.int32, described('Number of nodes that run a pod of the current template.')],
    numberAvailable: [7, s.int32, described('Number of nodes whose daemon pod has been ready for minReadySeconds.')],
    numberUnavailable: [8, s.int32, described('Number of nodes that should run a daemon pod but have none available.')],
    collisionCount: [9, collisionCount, pointer, described('Number of hash collisions met naming revisions, used to avoid the next.')],
    ...own.status,
  });
  return resourceKind(pkg, 'DaemonSet', {
    spec: [2, spec, described('Desired state of the daemon set.')],
    status: [3, status, described('Observed state of the daemon set, written by its controller.')],
  });
}

/**
 * The fields releases after 1.7 gave every DaemonSet version (`status.conditions`, `maxSurge`): the apps versions
 * have them; extensions/v1beta1 is served as 1.7 served it, and its stored objects keep them as members it does not
 * declare.
 */
export const daemonSetFieldsAfter17 = (pkg: GoPackage) => {
  const condition = pkg.struct('DaemonSetCondition', {
    type: [1, s.string, required, described('Type of the condition.')],
    status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
    lastTransitionTime: [3, s.time, described('When the status of the condition last changed.')],
    reason: [4, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
    message: [5, s.string, described('Human-readable details of the last change.')],
  });
  return {
    spec: {},
    rollingUpdate: {
      maxSurge: [2, s.intOrString, described('Most nodes that may run an updated daemon pod beside the old one during the update, as a count or a percentage.')],
    },
    status: { conditions: [10, s.list(condition), mergedBy('type'), described('Latest observations of the state of the daemon set.')] },
  } as const;
};

export const DAEMON_SET = daemonSetType(EXTENSIONS_V1BETA1, s.int64, {
  spec: { templateGeneration: [5, s.int64, described('Generation of the template, which tells old pods from new ones.')] },
  rollingUpdate: {},
  status: {},
});

export type DaemonSet = KindObject<typeof DAEMON_SET>;
