import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { SE_LINUX_OPTIONS } from '../../workloads/pod-template/container.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

const HOST_PORT_RANGE = EXTENSIONS_V1BETA1.struct('HostPortRange', {
  min: [1, s.int32, required, described('First port of the range.')],
  max: [2, s.int32, required, described('Last port of the range.')],
});

const SE_LINUX_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('SELinuxStrategyOptions', {
  rule: [1, s.string, required, described('How the SELinux context is chosen: MustRunAs or RunAsAny.')],
  seLinuxOptions: [2, SE_LINUX_OPTIONS, described('Context required with MustRunAs.')],
});

const ID_RANGE = EXTENSIONS_V1BETA1.struct('IDRange', {
  min: [1, s.int64, required, described('Lowest ID of the range.')],
  max: [2, s.int64, required, described('Highest ID of the range.')],
});

const RUN_AS_USER_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('RunAsUserStrategyOptions', {
  rule: [1, s.string, required, described('How the user ID is chosen: MustRunAs, MustRunAsNonRoot or RunAsAny.')],
  ranges: [2, s.list(ID_RANGE), described('IDs allowed with MustRunAs.')],
});

const SUPPLEMENTAL_GROUPS_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('SupplementalGroupsStrategyOptions', {
  rule: [1, s.string, described('How supplemental groups are chosen: MustRunAs or RunAsAny.')],
  ranges: [2, s.list(ID_RANGE), described('IDs allowed with MustRunAs.')],
});

const FS_GROUP_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('FSGroupStrategyOptions', {
  rule: [1, s.string, described('How the fsGroup is chosen: MustRunAs or RunAsAny.')],
  ranges: [2, s.list(ID_RANGE), described('IDs allowed with MustRunAs.')],
});

/** The 1.7 PodSecurityPolicySpec (later fields such as allowPrivilegeEscalation are dropped). */
const POD_SECURITY_POLICY_SPEC = EXTENSIONS_V1BETA1.struct('PodSecurityPolicySpec', {
  privileged: [1, s.boolean, described('Whether pods may run privileged containers.')],
  defaultAddCapabilities: [2, s.stringList, described('Capabilities added to every container that does not drop them.')],
  requiredDropCapabilities: [3, s.stringList, described('Capabilities every container must drop.')],
  allowedCapabilities: [4, s.stringList, described('Capabilities containers may add.')],
  volumes: [5, s.stringList, described('Volume types pods may use; * allows every type.')],
  hostNetwork: [6, s.boolean, described('Whether pods may use the network namespace of the node.')],
  hostPorts: [7, s.list(HOST_PORT_RANGE), described('Ports of the node pods may expose.')],
  hostPID: [8, s.boolean, described('Whether pods may use the process namespace of the node.')],
  hostIPC: [9, s.boolean, described('Whether pods may use the IPC namespace of the node.')],
  seLinux: [10, SE_LINUX_STRATEGY_OPTIONS, required, described('Rule for the SELinux context of pods.')],
  runAsUser: [11, RUN_AS_USER_STRATEGY_OPTIONS, required, described('Rule for the user IDs pods run as.')],
  supplementalGroups: [12, SUPPLEMENTAL_GROUPS_STRATEGY_OPTIONS, required, described('Rule for the supplemental groups of pods.')],
  fsGroup: [13, FS_GROUP_STRATEGY_OPTIONS, required, described('Rule for the group that owns the volumes of pods.')],
  readOnlyRootFilesystem: [14, s.boolean, described('Whether containers must have a read-only root filesystem.')],
});

export const POD_SECURITY_POLICY = resourceKind(EXTENSIONS_V1BETA1, 'PodSecurityPolicy', {
  spec: [2, POD_SECURITY_POLICY_SPEC, described('What the pods the policy admits may do.')],
});

/** A rule for user or group ids and the ranges it allows: runAsUser, supplementalGroups and fsGroup have this shape. */
export type IdStrategy = TypeOf<typeof RUN_AS_USER_STRATEGY_OPTIONS>;
export type PodSecurityPolicySpec = TypeOf<typeof POD_SECURITY_POLICY_SPEC>;
export type PodSecurityPolicy = KindObject<typeof POD_SECURITY_POLICY>;
