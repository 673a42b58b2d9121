import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { SE_LINUX_OPTIONS } from '../../workloads/pod-template/container.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

const HOST_PORT_RANGE = EXTENSIONS_V1BETA1.struct('HostPortRange', {
  min: [1, s.int32, required],
  max: [2, s.int32, required],
});

const SE_LINUX_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('SELinuxStrategyOptions', {
  rule: [1, s.string, required],
  seLinuxOptions: [2, SE_LINUX_OPTIONS],
});

const ID_RANGE = EXTENSIONS_V1BETA1.struct('IDRange', {
  min: [1, s.int64, required],
  max: [2, s.int64, required],
});

const RUN_AS_USER_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('RunAsUserStrategyOptions', {
  rule: [1, s.string, required],
  ranges: [2, s.list(ID_RANGE)],
});

const SUPPLEMENTAL_GROUPS_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('SupplementalGroupsStrategyOptions', {
  rule: [1, s.string],
  ranges: [2, s.list(ID_RANGE)],
});

const FS_GROUP_STRATEGY_OPTIONS = EXTENSIONS_V1BETA1.struct('FSGroupStrategyOptions', {
  rule: [1, s.string],
  ranges: [2, s.list(ID_RANGE)],
});

/** The 1.7 PodSecurityPolicySpec (later fields such as allowPrivilegeEscalation are dropped). */
const POD_SECURITY_POLICY_SPEC = EXTENSIONS_V1BETA1.struct('PodSecurityPolicySpec', {
  privileged: [1, s.boolean],
  defaultAddCapabilities: [2, s.stringList],
  requiredDropCapabilities: [3, s.stringList],
  allowedCapabilities: [4, s.stringList],
  volumes: [5, s.stringList],
  hostNetwork: [6, s.boolean],
  hostPorts: [7, s.list(HOST_PORT_RANGE)],
  hostPID: [8, s.boolean],
  hostIPC: [9, s.boolean],
  seLinux: [10, SE_LINUX_STRATEGY_OPTIONS, required],
  runAsUser: [11, RUN_AS_USER_STRATEGY_OPTIONS, required],
  supplementalGroups: [12, SUPPLEMENTAL_GROUPS_STRATEGY_OPTIONS, required],
  fsGroup: [13, FS_GROUP_STRATEGY_OPTIONS, required],
  readOnlyRootFilesystem: [14, s.boolean],
});

export const POD_SECURITY_POLICY = resourceKind(EXTENSIONS_V1BETA1, 'PodSecurityPolicy', {
  spec: [2, POD_SECURITY_POLICY_SPEC],
});

/** A rule for user or group ids and the ranges it allows: runAsUser, supplementalGroups and fsGroup have this shape. */
export type IdStrategy = TypeOf<typeof RUN_AS_USER_STRATEGY_OPTIONS>;
export type PodSecurityPolicySpec = TypeOf<typeof POD_SECURITY_POLICY_SPEC>;
export type PodSecurityPolicy = KindObject<typeof POD_SECURITY_POLICY>;
