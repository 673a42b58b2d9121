import { OBJECT_META } from '../../../apimachinery/meta/object-meta-schema';
import { AFFINITY } from './affinity.schema';
import { CONTAINER, SE_LINUX_OPTIONS } from './container.schema';
import { CORE_V1 } from './core-v1';
import { LOCAL_OBJECT_REFERENCE } from './references.schema';
import { VOLUME } from './volume.schema';
import { atomic, mergedBy, oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** The core v1 PodTemplateSpec of 1.7, which every pod controller carries. */

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default'];

const POD_SECURITY_CONTEXT = CORE_V1.struct('PodSecurityContext', {
  seLinuxOptions: [1, SE_LINUX_OPTIONS],
  runAsUser: [2, s.int64, pointer],
  runAsNonRoot: [3, s.boolean, pointer],
  supplementalGroups: [4, s.list(s.int64)],
  fsGroup: [5, s.int64, pointer],
});

const TOLERATION = CORE_V1.struct('Toleration', {
  key: [1, s.string],
  operator: [2, s.string],
  value: [3, s.string],
  effect: [4, s.string],
  tolerationSeconds: [5, s.int64, pointer],
});

const HOST_ALIAS = CORE_V1.struct('HostAlias', {
  ip: [1, s.string],
  hostnames: [2, s.stringList],
});

const POD_SPEC = CORE_V1.struct('PodSpec', {
  volumes: [1, s.list(VOLUME), mergedBy('name')],
  initContainers: [20, s.list(CONTAINER), mergedBy('name')],
  containers: [2, s.list(CONTAINER), mergedBy('name'), required],
  restartPolicy: [3, s.string, oneOf(...RESTART_POLICIES)],
  terminationGracePeriodSeconds: [4, s.int64, pointer],
  activeDeadlineSeconds: [5, s.int64, pointer],
  dnsPolicy: [6, s.string, oneOf(...DNS_POLICIES)],
  nodeSelector: [7, s.stringMap, atomic],
  serviceAccountName: [8, s.string],
  serviceAccount: [9, s.string],
  automountServiceAccountToken: [21, s.boolean, pointer],
  nodeName: [10, s.string],
  hostNetwork: [11, s.boolean],
  hostPID: [12, s.boolean],
  hostIPC: [13, s.boolean],
  securityContext: [14, POD_SECURITY_CONTEXT],
  imagePullSecrets: [15, s.list(LOCAL_OBJECT_REFERENCE), mergedBy('name')],
  hostname: [16, s.string],
  subdomain: [17, s.string],
  affinity: [18, AFFINITY],
  schedulerName: [19, s.string],
  tolerations: [22, s.list(TOLERATION)],
  hostAliases: [23, s.list(HOST_ALIAS), mergedBy('ip')],
});

export const POD_TEMPLATE_SPEC = CORE_V1.struct('PodTemplateSpec', {
  metadata: [1, OBJECT_META],
  spec: [2, POD_SPEC],
});

export type PodTemplateSpec = TypeOf<typeof POD_TEMPLATE_SPEC>;
export type PodSpec = TypeOf<typeof POD_SPEC>;
