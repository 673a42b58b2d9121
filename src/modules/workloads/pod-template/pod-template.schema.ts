import { OBJECT_META_SCHEMA } from '../../../apimachinery/meta/object-meta-schema';
import { s, Schema } from '../../../apimachinery/schema/schema';

/** The core v1 PodTemplateSpec of 1.7 (reference §12.1): typed where the server reads it, every field listed. */

const HTTP_GET = s.struct('HTTPGetAction', { path: s.string, port: s.intOrString, host: s.string, scheme: s.string, httpHeaders: s.any });
const HANDLER = s.struct('Handler', { exec: s.struct('ExecAction', { command: s.stringList }), httpGet: HTTP_GET, tcpSocket: s.struct('TCPSocketAction', { port: s.intOrString, host: s.string }) });

const PROBE = s.struct('Probe', {
  ...HANDLER.fields,
  initialDelaySeconds: s.int32,
  timeoutSeconds: s.int32,
  periodSeconds: s.int32,
  successThreshold: s.int32,
  failureThreshold: s.int32,
});

const CONTAINER = s.struct('Container', {
  name: s.string,
  image: s.string,
  command: s.stringList,
  args: s.stringList,
  workingDir: s.string,
  ports: s.list(s.struct('ContainerPort', { name: s.string, hostPort: s.int32, containerPort: s.int32, protocol: s.string, hostIP: s.string })),
  envFrom: s.any,
  env: s.list(
    s.struct('EnvVar', {
      name: s.string,
      value: s.string,
      valueFrom: s.struct('EnvVarSource', {
        fieldRef: s.struct('ObjectFieldSelector', { apiVersion: s.string, fieldPath: s.string }),
        resourceFieldRef: s.any,
        configMapKeyRef: s.any,
        secretKeyRef: s.any,
      }),
    }),
  ),
  resources: s.struct('ResourceRequirements', { limits: s.map(s.quantity), requests: s.map(s.quantity) }),
  volumeMounts: s.list(s.struct('VolumeMount', { name: s.string, readOnly: s.boolean, mountPath: s.string, subPath: s.string })),
  livenessProbe: PROBE,
  readinessProbe: PROBE,
  lifecycle: s.struct('Lifecycle', { postStart: HANDLER, preStop: HANDLER }),
  terminationMessagePath: s.string,
  terminationMessagePolicy: s.string,
  imagePullPolicy: s.string,
  securityContext: s.struct('SecurityContext', {
    capabilities: s.any,
    privileged: s.boolean,
    seLinuxOptions: s.any,
    runAsUser: s.int64,
    runAsNonRoot: s.boolean,
    readOnlyRootFilesystem: s.boolean,
  }),
  stdin: s.boolean,
  stdinOnce: s.boolean,
  tty: s.boolean,
});

const withMode = (name: string, fields: Record<string, Schema>) =>
  s.struct(name, { ...fields, defaultMode: s.int32 });

/** The volume sources of 1.7; those the server defaults or checks are typed. */
export const VOLUME_SOURCES = {
  hostPath: s.struct('HostPathVolumeSource', { path: s.string }),
  emptyDir: s.struct('EmptyDirVolumeSource', { medium: s.string, sizeLimit: s.quantity }),
  gcePersistentDisk: s.struct('GCEPersistentDiskVolumeSource', { pdName: s.string, fsType: s.string, partition: s.int32, readOnly: s.boolean }),
  awsElasticBlockStore: s.any,
  gitRepo: s.any,
  secret: withMode('SecretVolumeSource', { secretName: s.string, items: s.any, optional: s.boolean }),
  nfs: s.any,
  iscsi: s.struct('ISCSIVolumeSource', {
    targetPortal: s.string,
    iqn: s.string,
    lun: s.int32,
    iscsiInterface: s.string,
    fsType: s.string,
    readOnly: s.boolean,
    portals: s.stringList,
    chapAuthDiscovery: s.boolean,
    chapAuthSession: s.boolean,
    secretRef: s.any,
  }),
  glusterfs: s.any,
  persistentVolumeClaim: s.any,
  rbd: s.struct('RBDVolumeSource', {
    monitors: s.stringList,
    image: s.string,
    fsType: s.string,
    pool: s.string,
    user: s.string,
    keyring: s.string,
    secretRef: s.any,
    readOnly: s.boolean,
  }),
  flexVolume: s.any,
  cinder: s.any,
  cephfs: s.any,
  flocker: s.any,
  downwardAPI: withMode('DownwardAPIVolumeSource', { items: s.any }),
  fc: s.any,
  azureFile: s.any,
  configMap: withMode('ConfigMapVolumeSource', { name: s.string, items: s.any, optional: s.boolean }),
  vsphereVolume: s.any,
  quobyte: s.any,
  azureDisk: s.struct('AzureDiskVolumeSource', {
    diskName: s.string,
    diskURI: s.string,
    cachingMode: s.string,
    fsType: s.string,
    readOnly: s.boolean,
    kind: s.string,
  }),
  photonPersistentDisk: s.any,
  projected: withMode('ProjectedVolumeSource', { sources: s.any }),
  portworxVolume: s.any,
  scaleIO: s.struct('ScaleIOVolumeSource', {
    gateway: s.string,
    system: s.string,
    secretRef: s.any,
    sslEnabled: s.boolean,
    protectionDomain: s.string,
    storagePool: s.string,
    storageMode: s.string,
    volumeName: s.string,
    fsType: s.string,
    readOnly: s.boolean,
  }),
  storageos: s.any,
};

export const POD_TEMPLATE_SCHEMA = s.struct('PodTemplateSpec', {
  metadata: OBJECT_META_SCHEMA,
  spec: s.struct('PodSpec', {
    volumes: s.list(s.struct('Volume', { name: s.string, ...VOLUME_SOURCES })),
    initContainers: s.list(CONTAINER),
    containers: s.list(CONTAINER),
    restartPolicy: s.string,
    terminationGracePeriodSeconds: s.int64,
    activeDeadlineSeconds: s.int64,
    dnsPolicy: s.string,
    nodeSelector: s.stringMap,
    serviceAccountName: s.string,
    serviceAccount: s.string,
    automountServiceAccountToken: s.boolean,
    nodeName: s.string,
    hostNetwork: s.boolean,
    hostPID: s.boolean,
    hostIPC: s.boolean,
    securityContext: s.struct('PodSecurityContext', {
      seLinuxOptions: s.any,
      runAsUser: s.int64,
      runAsNonRoot: s.boolean,
      supplementalGroups: s.any,
      fsGroup: s.int64,
    }),
    imagePullSecrets: s.any,
    hostname: s.string,
    subdomain: s.string,
    affinity: s.any,
    schedulerName: s.string,
    tolerations: s.any,
    hostAliases: s.any,
  }),
});
