import { formatQuantity, parseQuantity, remembered, roundUp } from '../../../apimachinery/schema/quantity';
import { Container, Handler, Probe } from './container.schema';
import { PodSpec, PodTemplateSpec } from './pod-template.schema';
import { Volume, VOLUME_SOURCE } from './volume.schema';

/** Defaults set on a volume source when absent, as 1.7's core v1 defaulting. */
const VOLUME_DEFAULTS: Record<string, Record<string, unknown>> = {
  secret: { defaultMode: 420 },
  configMap: { defaultMode: 420 },
  downwardAPI: { defaultMode: 420 },
  projected: { defaultMode: 420 },
  iscsi: { iscsiInterface: 'default' },
  rbd: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
  azureDisk: { cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false },
  scaleIO: { storageMode: 'ThinProvisioned', fsType: 'xfs' },
};

const MILLI = -3;

/** Go's `x == ""` / `x == 0` defaulting: an empty value counts as absent. */
function fill<T extends object>(target: T, defaults: Partial<T>): void {
  const record = target as Record<string, unknown>;
  for (const [key, value] of Object.entries(defaults)) if (!record[key]) record[key] = value;
}

/** The image's tag: none for `name` and for a digest-only `name@sha256:...`, whose policy differs. */
function pullPolicy(image: string): string {
  if (!image) return 'IfNotPresent';
  const [name, digest] = image.split('@');
  const lastPart = name.slice(name.lastIndexOf('/') + 1);
  const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : digest === undefined ? 'latest' : '';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultHandler(handler: Handler | undefined): void {
  if (handler?.httpGet) fill(handler.httpGet, { path: '/', scheme: 'HTTP' });
}

function defaultProbe(probe: Probe | undefined): void {
  if (!probe) return;
  fill(probe, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  defaultHandler(probe);
}

const atMilliPrecision = remembered((quantity) => formatQuantity(roundUp(parseQuantity(quantity), MILLI)));

/** Resource quantities are kept at milli precision, rounded up (so 0.0001 becomes 1m). */
function roundResources(quantities: Record<string, string> | undefined): void {
  for (const [name, quantity] of Object.entries(quantities ?? {})) quantities![name] = atMilliPrecision(quantity);
}

function defaultContainer(container: Container, hostNetwork: boolean): void {
  container.resources ??= {};
  roundResources(container.resources.limits);
  roundResources(container.resources.requests);
  fill(container, {
    imagePullPolicy: pullPolicy(container.image ?? ''),
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  });
  for (const port of container.ports ?? []) {
    fill(port, { protocol: 'TCP' });
    if (hostNetwork && !port.hostPort) port.hostPort = port.containerPort;
  }
  for (const env of container.env ?? []) if (env.valueFrom?.fieldRef) fill(env.valueFrom.fieldRef, { apiVersion: 'v1' });
  defaultProbe(container.livenessProbe);
  defaultProbe(container.readinessProbe);
  defaultHandler(container.lifecycle?.postStart);
  defaultHandler(container.lifecycle?.preStop);
}

function defaultVolume(volume: Volume): void {
  const members: Record<string, unknown> = volume;
  const sources = Object.keys(VOLUME_SOURCE.fields).filter((source) => members[source] !== undefined);
  if (sources.length === 0) volume.emptyDir = {};
  for (const source of sources) {
    const defaults = VOLUME_DEFAULTS[source];
    if (defaults) for (const [key, value] of Object.entries(defaults)) (members[source] as Record<string, unknown>)[key] ??= value;
  }
}

function defaultPodSpec(spec: PodSpec): void {
  fill(spec, { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler' });
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  for (const container of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) defaultContainer(container, !!spec.hostNetwork);
  for (const volume of spec.volumes ?? []) defaultVolume(volume);
}

/** A pod template's defaults, as 1.7's core v1 defaulting; its metadata always carries `creationTimestamp: null`. */
export function defaultPodTemplate(template: PodTemplateSpec): void {
  template.metadata = { creationTimestamp: null, ...template.metadata };
  template.spec ??= {};
  defaultPodSpec(template.spec);
}
