import { s } from '../../../apimachinery/schema/schema';

const ID_RANGES = s.list(s.struct('IDRange', { min: s.int64, max: s.int64 }));

/** The 1.7 PodSecurityPolicySpec (later fields such as allowPrivilegeEscalation are dropped). */
export const POD_SECURITY_POLICY_FIELDS = {
  spec: s.struct('PodSecurityPolicySpec', {
    privileged: s.boolean,
    defaultAddCapabilities: s.stringList,
    requiredDropCapabilities: s.stringList,
    allowedCapabilities: s.stringList,
    volumes: s.stringList,
    hostNetwork: s.boolean,
    hostPorts: s.list(s.struct('HostPortRange', { min: s.int32, max: s.int32 })),
    hostPID: s.boolean,
    hostIPC: s.boolean,
    seLinux: s.struct('SELinuxStrategyOptions', { rule: s.string, seLinuxOptions: s.any }),
    runAsUser: s.struct('RunAsUserStrategyOptions', { rule: s.string, ranges: ID_RANGES }),
    supplementalGroups: s.struct('SupplementalGroupsStrategyOptions', { rule: s.string, ranges: ID_RANGES }),
    fsGroup: s.struct('FSGroupStrategyOptions', { rule: s.string, ranges: ID_RANGES }),
    readOnlyRootFilesystem: s.boolean,
  }),
};

export interface IdStrategy {
  rule?: string;
  ranges?: { min?: number; max?: number }[];
}

export interface PodSecurityPolicySpec {
  defaultAddCapabilities?: string[];
  requiredDropCapabilities?: string[];
  allowedCapabilities?: string[];
  volumes?: string[];
  seLinux?: IdStrategy;
  runAsUser?: IdStrategy;
  supplementalGroups?: IdStrategy;
  fsGroup?: IdStrategy;
}
