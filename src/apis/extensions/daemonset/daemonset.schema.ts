import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, pointer, required, s } from '../../../apimachinery/schema/schema';

const ROLLING_UPDATE_DAEMON_SET = EXTENSIONS_V1BETA1.struct('RollingUpdateDaemonSet', {
  maxUnavailable: [1, s.intOrString, described('Most nodes whose daemon pod may be unavailable during the update, as a count or a percentage.')],
});

const DAEMON_SET_UPDATE_STRATEGY = EXTENSIONS_V1BETA1.struct('DaemonSetUpdateStrategy', {
  type: [1, s.string, described('How old pods are replaced: OnDelete (the default) or RollingUpdate.')],
  rollingUpdate: [2, ROLLING_UPDATE_DAEMON_SET, described('Parameters of a rolling update.')],
});

const DAEMON_SET_SPEC = EXTENSIONS_V1BETA1.struct('DaemonSetSpec', {
  selector: [1, LABEL_SELECTOR, described('Labels a pod must carry to be counted by this daemon set.')],
  template: [2, POD_TEMPLATE_SPEC, required, described('Template of the pod run on each node.')],
  updateStrategy: [3, DAEMON_SET_UPDATE_STRATEGY, described('How old pods are replaced when the template changes.')],
  minReadySeconds: [4, s.int32, described('Seconds a new pod must stay ready to count as available.')],
  templateGeneration: [5, s.int64, described('Generation of the template, which tells old pods from new ones.')],
  revisionHistoryLimit: [6, s.int32, pointer, described('Number of old revisions kept for rollbacks; 10 by default.')],
});

const DAEMON_SET_STATUS = EXTENSIONS_V1BETA1.struct('DaemonSetStatus', {
  currentNumberScheduled: [1, s.int32, required, described('Number of nodes that run a daemon pod and should.')],
  numberMisscheduled: [2, s.int32, required, described('Number of nodes that run a daemon pod but should not.')],
  desiredNumberScheduled: [3, s.int32, required, described('Number of nodes that should run a daemon pod.')],
  numberReady: [4, s.int32, required, described('Number of nodes whose daemon pod is ready.')],
  observedGeneration: [5, s.int64, described('Generation of the object the controller last acted on.')],
  updatedNumberScheduled: [6, s.int32, described('Number of nodes that run a pod of the current template.')],
  numberAvailable: [7, s.int32, described('Number of nodes whose daemon pod has been ready for minReadySeconds.')],
  numberUnavailable: [8, s.int32, described('Number of nodes that should run a daemon pod but have none available.')],
  collisionCount: [9, s.int64, pointer, described('Number of hash collisions met naming revisions, used to avoid the next.')],
});

export const DAEMON_SET = resourceKind(EXTENSIONS_V1BETA1, 'DaemonSet', {
  spec: [2, DAEMON_SET_SPEC, described('Desired state of the daemon set.')],
  status: [3, DAEMON_SET_STATUS, described('Observed state of the daemon set, written by its controller.')],
});

export type DaemonSet = KindObject<typeof DAEMON_SET>;
