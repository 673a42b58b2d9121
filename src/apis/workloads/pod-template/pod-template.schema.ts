import { OBJECT_META } from '../../../apimachinery/meta/object-meta-schema';
import { AFFINITY } from './affinity.schema';
import { CONTAINER, SE_LINUX_OPTIONS } from './container.schema';
import { CORE_V1 } from './core-v1';
import { LOCAL_OBJECT_REFERENCE } from './references.schema';
import { VOLUME } from './volume.schema';
import { atomic, described, mergedBy, oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** The core v1 PodTemplateSpec of 1.7, which every pod controller carries. */

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default'];

const POD_SECURITY_CONTEXT = CORE_V1.struct('PodSecurityContext', {
  seLinuxOptions: [1, SE_LINUX_OPTIONS, described('SELinux context of every container.')],
  runAsUser: [2, s.int64, pointer, described('User ID the processes of the containers run as.')],
  runAsNonRoot: [3, s.boolean, pointer, described('Whether the containers must run as a user other than root.')],
  supplementalGroups: [4, s.list(s.int64), described('More group IDs the processes of every container belong to.')],
  fsGroup: [5, s.int64, pointer, described('Group ID that owns the volumes and is added to every container.')],
});

const TOLERATION = CORE_V1.struct('Toleration', {
  key: [1, s.string, described('Taint key the toleration matches; every key when empty.')],
  operator: [2, s.string, described('How the value is compared: Equal (the default) or Exists.')],
  value: [3, s.string, described('Taint value to match, with Equal.')],
  effect: [4, s.string, described('Taint effect to match: NoSchedule, PreferNoSchedule or NoExecute; every effect when empty.')],
  tolerationSeconds: [5, s.int64, pointer, described('Seconds the pod stays once a NoExecute taint appears; for ever when unset.')],
});

const HOST_ALIAS = CORE_V1.struct('HostAlias', {
  ip: [1, s.string, described('IP address of the host entries.')],
  hostnames: [2, s.stringList, described('Host names of that address.')],
});

const POD_SPEC = CORE_V1.struct('PodSpec', {
  volumes: [1, s.list(VOLUME), mergedBy('name'), described('Volumes the containers can mount.')],
  initContainers: [20, s.list(CONTAINER), mergedBy('name'), described('Containers run to completion one after the other before the others start.')],
  containers: [2, s.list(CONTAINER), mergedBy('name'), required, described('Containers of the pod.')],
  restartPolicy: [3, s.string, oneOf(...RESTART_POLICIES), described('When containers are restarted: Always, OnFailure or Never.')],
  terminationGracePeriodSeconds: [4, s.int64, pointer, described('Seconds the pod has to stop once told to; 30 by default.')],
  activeDeadlineSeconds: [5, s.int64, pointer, described('Seconds the pod may run before the system ends it.')],
  dnsPolicy: [6, s.string, oneOf(...DNS_POLICIES), described('How the pod resolves names; ClusterFirst by default.')],
  nodeSelector: [7, s.stringMap, atomic, described('Labels a node must carry for the pod to run there.')],
  serviceAccountName: [8, s.string, described('Service account the pod runs as.')],
  serviceAccount: [9, s.string, described('Former name of serviceAccountName.')],
  automountServiceAccountToken: [21, s.boolean, pointer, described('Whether the token of the service account is mounted.')],
  nodeName: [10, s.string, described('Node the pod is bound to; setting it bypasses the scheduler.')],
  hostNetwork: [11, s.boolean, described('Whether the pod uses the network namespace of the node.')],
  hostPID: [12, s.boolean, described('Whether the pod uses the process namespace of the node.')],
  hostIPC: [13, s.boolean, described('Whether the pod uses the IPC namespace of the node.')],
  securityContext: [14, POD_SECURITY_CONTEXT, described('Security options of every container.')],
  imagePullSecrets: [15, s.list(LOCAL_OBJECT_REFERENCE), mergedBy('name'), described('Secrets used to pull the images.')],
  hostname: [16, s.string, described('Host name of the pod; the pod name by default.')],
  subdomain: [17, s.string, described('Subdomain of the pod, which with the host name makes its full domain name.')],
  affinity: [18, AFFINITY, described('Scheduling rules relative to nodes and to other pods.')],
  schedulerName: [19, s.string, described('Scheduler that places the pod; the default one when empty.')],
  tolerations: [22, s.list(TOLERATION), described('Taints the pod tolerates.')],
  hostAliases: [23, s.list(HOST_ALIAS), mergedBy('ip'), described('More entries for the hosts file of the pod.')],
});

export const POD_TEMPLATE_SPEC = CORE_V1.struct('PodTemplateSpec', {
  metadata: [1, OBJECT_META, described('Metadata of the pods made from the template.')],
  spec: [2, POD_SPEC, described('Specification of the pods made from the template.')],
});

export type PodTemplateSpec = TypeOf<typeof POD_TEMPLATE_SPEC>;
export type PodSpec = TypeOf<typeof POD_SPEC>;
