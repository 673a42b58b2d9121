import { ObjectMeta } from '../../../apimachinery/meta/kube-object';

/** The parts of a pod template the server reads, as POD_TEMPLATE_SPEC (its shape) guarantees their types. */

export interface HttpGetAction {
  path?: string;
  port?: number | string;
  scheme?: string;
}

export interface Handler {
  exec?: { command?: string[] };
  httpGet?: HttpGetAction;
  tcpSocket?: { port?: number | string };
}

export interface Probe extends Handler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort?: number;
  protocol?: string;
}

export interface EnvVar {
  name?: string;
  value?: string;
  valueFrom?: Record<string, unknown> & { fieldRef?: { apiVersion?: string; fieldPath?: string } };
}

export interface Container {
  name?: string;
  image?: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  volumeMounts?: { name?: string; mountPath?: string }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { postStart?: Handler; preStop?: Handler };
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  imagePullPolicy?: string;
}

export type Volume = { name?: string } & Record<string, Record<string, unknown> | string | undefined>;

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers?: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  hostNetwork?: boolean;
  securityContext?: Record<string, unknown>;
  hostname?: string;
  subdomain?: string;
  schedulerName?: string;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}
