import { CORE_V1 } from './core-v1';
import { LOCAL_OBJECT_REFERENCE, OBJECT_FIELD_SELECTOR, RESOURCE_FIELD_SELECTOR } from './references.schema';
import { atomicStruct, defaultsTo, described, inline, listMapKeys, mergedBy, oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** The values the server accepts (its validation reads them too). */
export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
export const PROTOCOLS = ['TCP', 'UDP'];

const CONTAINER_PORT = CORE_V1.struct('ContainerPort', {
  name: [1, s.string, described('Name of the port, unique in the pod, by which services can refer to it.')],
  hostPort: [2, s.int32, described('Port of the node that forwards to the container port; none when 0.')],
  containerPort: [3, s.int32, required, described('Port the container listens on.')],
  protocol: [4, s.string, oneOf(...PROTOCOLS), defaultsTo('TCP'), described('Protocol of the port; TCP by default.')],
  hostIP: [5, s.string, described('Address of the node the host port is bound to.')],
});

const CONFIG_MAP_ENV_SOURCE = CORE_V1.struct('ConfigMapEnvSource', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  optional: [2, s.boolean, pointer, described('Whether the container may start when the config map is missing.')],
});

const SECRET_ENV_SOURCE = CORE_V1.struct('SecretEnvSource', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  optional: [2, s.boolean, pointer, described('Whether the container may start when the secret is missing.')],
});

const ENV_FROM_SOURCE = CORE_V1.struct('EnvFromSource', {
  prefix: [1, s.string, described('Text put in front of every variable name.')],
  configMapRef: [2, CONFIG_MAP_ENV_SOURCE, described('Config map whose keys become variables.')],
  secretRef: [3, SECRET_ENV_SOURCE, described('Secret whose keys become variables.')],
});

const CONFIG_MAP_KEY_SELECTOR = atomicStruct(
  CORE_V1.struct('ConfigMapKeySelector', {
    localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
    key: [2, s.string, required, described('Key whose value is read.')],
    optional: [3, s.boolean, pointer, described('Whether the container may start when the config map or the key is missing.')],
  }),
);

const SECRET_KEY_SELECTOR = atomicStruct(
  CORE_V1.struct('SecretKeySelector', {
    localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
    key: [2, s.string, required, described('Key whose value is read.')],
    optional: [3, s.boolean, pointer, described('Whether the container may start when the secret or the key is missing.')],
  }),
);

const ENV_VAR_SOURCE = CORE_V1.struct('EnvVarSource', {
  fieldRef: [1, OBJECT_FIELD_SELECTOR, described('A field of the pod, such as metadata.name or status.podIP.')],
  resourceFieldRef: [2, RESOURCE_FIELD_SELECTOR, described('A limit or request of a container.')],
  configMapKeyRef: [3, CONFIG_MAP_KEY_SELECTOR, described('A key of a config map.')],
  secretKeyRef: [4, SECRET_KEY_SELECTOR, described('A key of a secret.')],
});

const ENV_VAR = CORE_V1.struct('EnvVar', {
  name: [1, s.string, required, described('Name of the variable.')],
  value: [2, s.string, described('Value of the variable; $(NAME) stands for an earlier variable.')],
  valueFrom: [3, ENV_VAR_SOURCE, described('Where the value comes from, when value is not given.')],
});

const RESOURCE_REQUIREMENTS = CORE_V1.struct('ResourceRequirements', {
  limits: [1, s.map(s.quantity), described('Most of each resource the container may use, such as cpu: 500m.')],
  requests: [2, s.map(s.quantity), described('Amount of each resource the container is scheduled with; the limits by default.')],
});

const VOLUME_MOUNT = CORE_V1.struct('VolumeMount', {
  name: [1, s.string, required, described('Name of the volume of the pod to mount.')],
  readOnly: [2, s.boolean, described('Whether the mount is read-only.')],
  mountPath: [3, s.string, required, described('Path in the container at which the volume is mounted.')],
  subPath: [4, s.string, described('Path inside the volume to mount in place of its root.')],
});

const EXEC_ACTION = CORE_V1.struct('ExecAction', {
  command: [1, s.stringList, described('Command run in the container; exit status 0 counts as success.')],
});

const HTTP_HEADER = CORE_V1.struct('HTTPHeader', {
  name: [1, s.string, required, described('Name of the header.')],
  value: [2, s.string, required, described('Value of the header.')],
});

const HTTP_GET_ACTION = CORE_V1.struct('HTTPGetAction', {
  path: [1, s.string, described('Path to request.')],
  port: [2, s.intOrString, required, described('Port to connect to, by number or by name.')],
  host: [3, s.string, described('Host to connect to; the IP of the pod by default.')],
  scheme: [4, s.string, described('HTTP or HTTPS; HTTP by default.')],
  httpHeaders: [5, s.list(HTTP_HEADER), described('More headers to send with the request.')],
});

const TCP_SOCKET_ACTION = CORE_V1.struct('TCPSocketAction', {
  port: [1, s.intOrString, required, described('Port to connect to, by number or by name.')],
  host: [2, s.string, described('Host to connect to; the IP of the pod by default.')],
});

const HANDLER = CORE_V1.struct('Handler', {
  exec: [1, EXEC_ACTION, described('Run a command in the container.')],
  httpGet: [2, HTTP_GET_ACTION, described('Send an HTTP GET request.')],
  tcpSocket: [3, TCP_SOCKET_ACTION, described('Open a TCP connection.')],
});

const PROBE = CORE_V1.struct('Probe', {
  handler: [1, HANDLER, inline],
  initialDelaySeconds: [2, s.int32, described('Seconds between the start of the container and the first probe.')],
  timeoutSeconds: [3, s.int32, described('Seconds after which a probe counts as failed; 1 by default.')],
  periodSeconds: [4, s.int32, described('Seconds between probes; 10 by default.')],
  successThreshold: [5, s.int32, described('Successes in a row, after a failure, for the probe to pass; 1 by default.')],
  failureThreshold: [6, s.int32, described('Failures in a row for the probe to fail; 3 by default.')],
});

const LIFECYCLE = CORE_V1.struct('Lifecycle', {
  postStart: [1, HANDLER, described('Action run right after the container is created.')],
  preStop: [2, HANDLER, described('Action run before the container is stopped.')],
});

const CAPABILITIES = CORE_V1.struct('Capabilities', {
  add: [1, s.stringList, described('Kernel capabilities to add.')],
  drop: [2, s.stringList, described('Kernel capabilities to remove.')],
});

export const SE_LINUX_OPTIONS = CORE_V1.struct('SELinuxOptions', {
  user: [1, s.string, described('SELinux user of the label.')],
  role: [2, s.string, described('SELinux role of the label.')],
  type: [3, s.string, described('SELinux type of the label.')],
  level: [4, s.string, described('SELinux level of the label.')],
});

const SECURITY_CONTEXT = CORE_V1.struct('SecurityContext', {
  capabilities: [1, CAPABILITIES, described('Kernel capabilities to add or remove.')],
  privileged: [2, s.boolean, pointer, described('Whether the container runs privileged, with the devices of the host; false by default.')],
  seLinuxOptions: [3, SE_LINUX_OPTIONS, described('SELinux context of the container.')],
  runAsUser: [4, s.int64, pointer, described('User ID the process of the container runs as.')],
  runAsNonRoot: [5, s.boolean, pointer, described('Whether the container must run as a user other than root.')],
  readOnlyRootFilesystem: [6, s.boolean, pointer, described('Whether the root filesystem of the container is read-only.')],
});

export const CONTAINER = CORE_V1.struct('Container', {
  name: [1, s.string, required, described('Name of the container, unique in the pod.')],
  image: [2, s.string, required, described('Container image to run.')],
  command: [3, s.stringList, described('Entrypoint to run, in place of the one of the image.')],
  args: [4, s.stringList, described('Arguments of the entrypoint, in place of the ones of the image.')],
  workingDir: [5, s.string, described('Working directory; the one of the image by default.')],
  ports: [6, s.list(CONTAINER_PORT), mergedBy('containerPort'), listMapKeys('containerPort', 'protocol'), described('Ports the container exposes.')],
  envFrom: [19, s.list(ENV_FROM_SOURCE), described('Sources whose keys all become environment variables.')],
  env: [7, s.list(ENV_VAR), mergedBy('name'), described('Environment variables to set.')],
  resources: [8, RESOURCE_REQUIREMENTS, described('Compute resources the container asks for and is limited to.')],
  volumeMounts: [9, s.list(VOLUME_MOUNT), mergedBy('mountPath'), described('Volumes of the pod to mount in the container.')],
  livenessProbe: [10, PROBE, described('Check whose failure restarts the container.')],
  readinessProbe: [11, PROBE, described('Check whose failure takes the pod out of the endpoints of services.')],
  lifecycle: [12, LIFECYCLE, described('Actions run after the container starts and before it stops.')],
  terminationMessagePath: [13, s.string, described('File whose content becomes the termination message; /dev/termination-log by default.')],
  terminationMessagePolicy: [20, s.string, described('Where the termination message comes from: File or FallbackToLogsOnError.')],
  imagePullPolicy: [14, s.string, oneOf(...PULL_POLICIES), described('When the image is pulled: Always, IfNotPresent or Never.')],
  securityContext: [15, SECURITY_CONTEXT, described('Security options of the container, over those of the pod.')],
  stdin: [16, s.boolean, described('Whether the container keeps a stdin open.')],
  stdinOnce: [17, s.boolean, described('Whether stdin closes once the first attached client leaves.')],
  tty: [18, s.boolean, described('Whether the container gets a terminal.')],
});

export type Container = TypeOf<typeof CONTAINER>;
export type ContainerPort = TypeOf<typeof CONTAINER_PORT>;
export type EnvVar = TypeOf<typeof ENV_VAR>;
export type Handler = TypeOf<typeof HANDLER>;
export type Probe = TypeOf<typeof PROBE>;
