import { CORE_V1 } from './core-v1';
import { LOCAL_OBJECT_REFERENCE, OBJECT_FIELD_SELECTOR, RESOURCE_FIELD_SELECTOR } from './references.schema';
import { atomicStruct, defaultsTo, inline, listMapKeys, mergedBy, oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** The values the server accepts (its validation reads them too). */
export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
export const PROTOCOLS = ['TCP', 'UDP'];

const CONTAINER_PORT = CORE_V1.struct('ContainerPort', {
  name: [1, s.string],
  hostPort: [2, s.int32],
  containerPort: [3, s.int32, required],
  protocol: [4, s.string, oneOf(...PROTOCOLS), defaultsTo('TCP')],
  hostIP: [5, s.string],
});

const CONFIG_MAP_ENV_SOURCE = CORE_V1.struct('ConfigMapEnvSource', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  optional: [2, s.boolean, pointer],
});

const SECRET_ENV_SOURCE = CORE_V1.struct('SecretEnvSource', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  optional: [2, s.boolean, pointer],
});

const ENV_FROM_SOURCE = CORE_V1.struct('EnvFromSource', {
  prefix: [1, s.string],
  configMapRef: [2, CONFIG_MAP_ENV_SOURCE],
  secretRef: [3, SECRET_ENV_SOURCE],
});

const CONFIG_MAP_KEY_SELECTOR = atomicStruct(
  CORE_V1.struct('ConfigMapKeySelector', {
    localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
    key: [2, s.string, required],
    optional: [3, s.boolean, pointer],
  }),
);

const SECRET_KEY_SELECTOR = atomicStruct(
  CORE_V1.struct('SecretKeySelector', {
    localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
    key: [2, s.string, required],
    optional: [3, s.boolean, pointer],
  }),
);

const ENV_VAR_SOURCE = CORE_V1.struct('EnvVarSource', {
  fieldRef: [1, OBJECT_FIELD_SELECTOR],
  resourceFieldRef: [2, RESOURCE_FIELD_SELECTOR],
  configMapKeyRef: [3, CONFIG_MAP_KEY_SELECTOR],
  secretKeyRef: [4, SECRET_KEY_SELECTOR],
});

const ENV_VAR = CORE_V1.struct('EnvVar', {
  name: [1, s.string, required],
  value: [2, s.string],
  valueFrom: [3, ENV_VAR_SOURCE],
});

const RESOURCE_REQUIREMENTS = CORE_V1.struct('ResourceRequirements', {
  limits: [1, s.map(s.quantity)],
  requests: [2, s.map(s.quantity)],
});

const VOLUME_MOUNT = CORE_V1.struct('VolumeMount', {
  name: [1, s.string, required],
  readOnly: [2, s.boolean],
  mountPath: [3, s.string, required],
  subPath: [4, s.string],
});

const EXEC_ACTION = CORE_V1.struct('ExecAction', {
  command: [1, s.stringList],
});

const HTTP_HEADER = CORE_V1.struct('HTTPHeader', {
  name: [1, s.string, required],
  value: [2, s.string, required],
});

const HTTP_GET_ACTION = CORE_V1.struct('HTTPGetAction', {
  path: [1, s.string],
  port: [2, s.intOrString, required],
  host: [3, s.string],
  scheme: [4, s.string],
  httpHeaders: [5, s.list(HTTP_HEADER)],
});

const TCP_SOCKET_ACTION = CORE_V1.struct('TCPSocketAction', {
  port: [1, s.intOrString, required],
  host: [2, s.string],
});

const HANDLER = CORE_V1.struct('Handler', {
  exec: [1, EXEC_ACTION],
  httpGet: [2, HTTP_GET_ACTION],
  tcpSocket: [3, TCP_SOCKET_ACTION],
});

const PROBE = CORE_V1.struct('Probe', {
  handler: [1, HANDLER, inline],
  initialDelaySeconds: [2, s.int32],
  timeoutSeconds: [3, s.int32],
  periodSeconds: [4, s.int32],
  successThreshold: [5, s.int32],
  failureThreshold: [6, s.int32],
});

const LIFECYCLE = CORE_V1.struct('Lifecycle', {
  postStart: [1, HANDLER],
  preStop: [2, HANDLER],
});

const CAPABILITIES = CORE_V1.struct('Capabilities', {
  add: [1, s.stringList],
  drop: [2, s.stringList],
});

export const SE_LINUX_OPTIONS = CORE_V1.struct('SELinuxOptions', {
  user: [1, s.string],
  role: [2, s.string],
  type: [3, s.string],
  level: [4, s.string],
});

const SECURITY_CONTEXT = CORE_V1.struct('SecurityContext', {
  capabilities: [1, CAPABILITIES],
  privileged: [2, s.boolean, pointer],
  seLinuxOptions: [3, SE_LINUX_OPTIONS],
  runAsUser: [4, s.int64, pointer],
  runAsNonRoot: [5, s.boolean, pointer],
  readOnlyRootFilesystem: [6, s.boolean, pointer],
});

export const CONTAINER = CORE_V1.struct('Container', {
  name: [1, s.string, required],
  image: [2, s.string, required],
  command: [3, s.stringList],
  args: [4, s.stringList],
  workingDir: [5, s.string],
  ports: [6, s.list(CONTAINER_PORT), mergedBy('containerPort'), listMapKeys('containerPort', 'protocol')],
  envFrom: [19, s.list(ENV_FROM_SOURCE)],
  env: [7, s.list(ENV_VAR), mergedBy('name')],
  resources: [8, RESOURCE_REQUIREMENTS],
  volumeMounts: [9, s.list(VOLUME_MOUNT), mergedBy('mountPath')],
  livenessProbe: [10, PROBE],
  readinessProbe: [11, PROBE],
  lifecycle: [12, LIFECYCLE],
  terminationMessagePath: [13, s.string],
  terminationMessagePolicy: [20, s.string],
  imagePullPolicy: [14, s.string, oneOf(...PULL_POLICIES)],
  securityContext: [15, SECURITY_CONTEXT],
  stdin: [16, s.boolean],
  stdinOnce: [17, s.boolean],
  tty: [18, s.boolean],
});

export type Container = TypeOf<typeof CONTAINER>;
export type ContainerPort = TypeOf<typeof CONTAINER_PORT>;
export type EnvVar = TypeOf<typeof ENV_VAR>;
export type Handler = TypeOf<typeof HANDLER>;
export type Probe = TypeOf<typeof PROBE>;
