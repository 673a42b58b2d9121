import { KindObject, OBJECT_META, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { outsideCatalogue, TypeDeclarer } from '../../../apimachinery/schema/go-packages';
import { SE_LINUX_OPTIONS } from '../../workloads/pod-template/container.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** The types of a PodSecurityPolicySpec's rules, as a package declares them. */
function ruleTypes(pkg: TypeDeclarer) {
  const idRange = pkg.struct('IDRange', {
    min: [1, s.int64, required, described('Lowest ID of the range.')],
    max: [2, s.int64, required, described('Highest ID of the range.')],
  });
  return {
    idRange,
    hostPortRange: pkg.struct('HostPortRange', {
      min: [1, s.int32, required, described('First port of the range.')],
      max: [2, s.int32, required, described('Last port of the range.')],
    }),
    seLinux: pkg.struct('SELinuxStrategyOptions', {
      rule: [1, s.string, required, described('How the SELinux context is chosen: MustRunAs or RunAsAny.')],
      seLinuxOptions: [2, SE_LINUX_OPTIONS, described('Context required with MustRunAs.')],
    }),
    runAsUser: pkg.struct('RunAsUserStrategyOptions', {
      rule: [1, s.string, required, described('How the user ID is chosen: MustRunAs, MustRunAsNonRoot or RunAsAny.')],
      ranges: [2, s.list(idRange), described('IDs allowed with MustRunAs.')],
    }),
    supplementalGroups: pkg.struct('SupplementalGroupsStrategyOptions', {
      rule: [1, s.string, described('How supplemental groups are chosen: MustRunAs or RunAsAny.')],
      ranges: [2, s.list(idRange), described('IDs allowed with MustRunAs.')],
    }),
    fsGroup: pkg.struct('FSGroupStrategyOptions', {
      rule: [1, s.string, described('How the fsGroup is chosen: MustRunAs or RunAsAny.')],
      ranges: [2, s.list(idRange), described('IDs allowed with MustRunAs.')],
    }),
  };
}

/** The fields of 1.7's PodSecurityPolicySpec, with the rule types of a package. */
function specFields1_7(types: ReturnType<typeof ruleTypes>) {
  return {
    privileged: [1, s.boolean, described('Whether pods may run privileged containers.')],
    defaultAddCapabilities: [2, s.stringList, described('Capabilities added to every container that does not drop them.')],
    requiredDropCapabilities: [3, s.stringList, described('Capabilities every container must drop.')],
    allowedCapabilities: [4, s.stringList, described('Capabilities containers may add.')],
    volumes: [5, s.stringList, described('Volume types pods may use; * allows every type.')],
    hostNetwork: [6, s.boolean, described('Whether pods may use the network namespace of the node.')],
    hostPorts: [7, s.list(types.hostPortRange), described('Ports of the node pods may expose.')],
    hostPID: [8, s.boolean, described('Whether pods may use the process namespace of the node.')],
    hostIPC: [9, s.boolean, described('Whether pods may use the IPC namespace of the node.')],
    seLinux: [10, types.seLinux, required, described('Rule for the SELinux context of pods.')],
    runAsUser: [11, types.runAsUser, required, described('Rule for the user IDs pods run as.')],
    supplementalGroups: [12, types.supplementalGroups, required, described('Rule for the supplemental groups of pods.')],
    fsGroup: [13, types.fsGroup, required, described('Rule for the group that owns the volumes of pods.')],
    readOnlyRootFilesystem: [14, s.boolean, described('Whether containers must have a read-only root filesystem.')],
  } as const;
}

/**
 * The PodSecurityPolicySpec of the last releases that served it (1.24): policy/v1beta1's, and the stored
 * extensions/v1beta1 one, whose fields were the same.
 */
export function podSecurityPolicySpec(pkg: TypeDeclarer) {
  const types = ruleTypes(pkg);
  const runAsGroup = pkg.struct('RunAsGroupStrategyOptions', {
    rule: [1, s.string, required, described('How the primary group is chosen: MustRunAs, MayRunAs or RunAsAny.')],
    ranges: [2, s.list(types.idRange), described('IDs allowed with MustRunAs and MayRunAs.')],
  });
  const hostPath = pkg.struct('AllowedHostPath', {
    pathPrefix: [1, s.string, described('Prefix of the host paths pods may mount, such as /foo.')],
    readOnly: [2, s.boolean, described('Whether such mounts must be read-only.')],
  });
  const flexVolume = pkg.struct('AllowedFlexVolume', {
    driver: [1, s.string, required, described('Name of the Flexvolume driver.')],
  });
  const csiDriver = pkg.struct('AllowedCSIDriver', {
    name: [1, s.string, required, described('Name of the CSI driver.')],
  });
  const runtimeClass = pkg.struct('RuntimeClassStrategyOptions', {
    allowedRuntimeClassNames: [1, s.stringList, required, described('RuntimeClass names pods may use; * allows every one.')],
    defaultRuntimeClassName: [2, s.string, pointer, described('RuntimeClass name set on pods that name none.')],
  });
  return pkg.struct('PodSecurityPolicySpec', {
    ...specFields1_7(types),
    runAsGroup: [22, runAsGroup, pointer, described('Rule for the primary group IDs of pods; not enforced when unset.')],
    defaultAllowPrivilegeEscalation: [15, s.boolean, pointer, described('Default of allowPrivilegeEscalation for containers that set none.')],
    allowPrivilegeEscalation: [16, s.boolean, pointer, described('Whether containers may request privilege escalation; true when unset.')],
    allowedHostPaths: [17, s.list(hostPath), described('Host paths hostPath volumes may use; any when empty.')],
    allowedFlexVolumes: [18, s.list(flexVolume), described('Flexvolume drivers pods may use; any when empty.')],
    allowedCSIDrivers: [23, s.list(csiDriver), described('CSI drivers inline volumes may use; any when empty.')],
    allowedUnsafeSysctls: [19, s.stringList, described('Unsafe sysctls pods may set; * allows all.')],
    forbiddenSysctls: [20, s.stringList, described('Sysctls pods may not set; * forbids all.')],
    allowedProcMountTypes: [21, s.stringList, described('ProcMountTypes containers may use; Default when empty.')],
    runtimeClass: [24, runtimeClass, pointer, described('Rule for the RuntimeClass of pods; not enforced when unset.')],
  });
}

const RULES_1_7 = ruleTypes(EXTENSIONS_V1BETA1);

/** The 1.7 PodSecurityPolicySpec, which extensions/v1beta1 serves. */
const POD_SECURITY_POLICY_SPEC = EXTENSIONS_V1BETA1.struct('PodSecurityPolicySpec', specFields1_7(RULES_1_7));

const SPEC_DESCRIPTION = described('What the pods the policy admits may do.');

export const POD_SECURITY_POLICY = resourceKind(EXTENSIONS_V1BETA1, 'PodSecurityPolicy', {
  spec: [2, POD_SECURITY_POLICY_SPEC, SPEC_DESCRIPTION],
});

/** The stored PodSecurityPolicy: extensions/v1beta1 as later releases had it, which policy/v1beta1 serves. */
export const STORED_POD_SECURITY_POLICY = outsideCatalogue(EXTENSIONS_V1BETA1).struct('PodSecurityPolicy', {
  metadata: [1, OBJECT_META],
  spec: [2, podSecurityPolicySpec(outsideCatalogue(EXTENSIONS_V1BETA1)), SPEC_DESCRIPTION],
});

/** A rule for user or group ids and the ranges it allows: runAsUser, supplementalGroups and fsGroup have this shape. */
export type IdStrategy = TypeOf<typeof RULES_1_7.runAsUser>;
export type PodSecurityPolicySpec = TypeOf<typeof POD_SECURITY_POLICY_SPEC>;
export type PodSecurityPolicy = KindObject<typeof POD_SECURITY_POLICY>;
