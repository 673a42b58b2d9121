import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { cIdentifier, dns1123Label, portName, portNumber } from '../../../apimachinery/validation/names';
import { validateHandler, validateProbe } from './handler.validation';
import { validateResources } from './resources.validation';
import { Container, ContainerPort, EnvVar, PROTOCOLS, PULL_POLICIES } from './container.schema';

const ENV_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'] as const;

function validatePorts(ports: ContainerPort[], field: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const path = `${field}[${i}]`;
    if (port.name) {
      const messages = portName(port.name);
      for (const message of messages) errors.push(fieldErrors.invalid(`${path}.name`, port.name, message));
      if (messages.length === 0 && names.has(port.name)) errors.push(fieldErrors.duplicate(`${path}.name`, port.name));
      names.add(port.name);
    }
    if (!port.containerPort) errors.push(fieldErrors.required(`${path}.containerPort`));
    else for (const message of portNumber(port.containerPort)) errors.push(fieldErrors.invalid(`${path}.containerPort`, port.containerPort, message));
    if (port.hostPort) for (const message of portNumber(port.hostPort)) errors.push(fieldErrors.invalid(`${path}.hostPort`, port.hostPort, message));
    if (!port.protocol) errors.push(fieldErrors.required(`${path}.protocol`));
    else if (!PROTOCOLS.includes(port.protocol)) errors.push(fieldErrors.notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
  });
  return errors;
}

function validateEnv(env: EnvVar[], field: string): FieldError[] {
  const errors: FieldError[] = [];
  env.forEach((variable, i) => {
    const path = `${field}[${i}]`;
    if (!variable.name) errors.push(fieldErrors.required(`${path}.name`));
    else for (const message of cIdentifier(variable.name)) errors.push(fieldErrors.invalid(`${path}.name`, variable.name, message));
    if (!variable.valueFrom) return;
    const sources = ENV_SOURCES.filter((source) => variable.valueFrom![source] !== undefined);
    const from = `${path}.valueFrom`;
    if (sources.length === 0) {
      errors.push(fieldErrors.invalid(from, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    } else if (sources.length > 1) {
      errors.push(fieldErrors.invalid(from, '', 'may not have more than one field specified at a time'));
    }
    if (variable.value && sources.length > 0) errors.push(fieldErrors.invalid(from, '', 'may not be specified when `value` is not empty'));
    const fieldRef = variable.valueFrom.fieldRef;
    if (fieldRef && !fieldRef.fieldPath) errors.push(fieldErrors.required(`${from}.fieldRef.fieldPath`));
  });
  return errors;
}

function validateVolumeMounts(mounts: NonNullable<Container['volumeMounts']>, volumes: ReadonlySet<string>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const mountPaths = new Set<string>();
  mounts.forEach((mount, i) => {
    const path = `${field}[${i}]`;
    if (!mount.name) errors.push(fieldErrors.required(`${path}.name`));
    else if (!volumes.has(mount.name)) errors.push(fieldErrors.notFound(`${path}.name`, mount.name));
    if (!mount.mountPath) errors.push(fieldErrors.required(`${path}.mountPath`));
    else if (mount.mountPath.includes(':')) errors.push(fieldErrors.invalid(`${path}.mountPath`, mount.mountPath, "must not contain ':'"));
    if (mountPaths.has(mount.mountPath ?? '')) errors.push(fieldErrors.invalid(`${path}.mountPath`, mount.mountPath, 'must be unique'));
    mountPaths.add(mount.mountPath ?? '');
  });
  return errors;
}

function validateContainer(container: Container, volumes: ReadonlySet<string>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!container.name) errors.push(fieldErrors.required(`${path}.name`));
  else for (const message of dns1123Label(container.name)) errors.push(fieldErrors.invalid(`${path}.name`, container.name, message));
  if (!container.image) errors.push(fieldErrors.required(`${path}.image`));
  for (const hook of ['postStart', 'preStop'] as const) {
    const handler = container.lifecycle?.[hook];
    if (handler) errors.push(...validateHandler(handler, `${path}.lifecycle.${hook}`));
  }
  errors.push(...validateProbe(container.livenessProbe, `${path}.livenessProbe`));
  const liveness = container.livenessProbe;
  if (liveness && liveness.successThreshold !== 1) {
    errors.push(fieldErrors.invalid(`${path}.livenessProbe.successThreshold`, liveness.successThreshold ?? 0, 'must be 1'));
  }
  const messagePolicy = container.terminationMessagePolicy;
  if (messagePolicy !== 'File' && messagePolicy !== 'FallbackToLogsOnError') {
    const detail = "must be 'File' or 'FallbackToLogsOnError'";
    errors.push(
      messagePolicy
        ? fieldErrors.invalid(`${path}.terminationMessagePolicy`, messagePolicy, detail)
        : fieldErrors.required(`${path}.terminationMessagePolicy`, detail),
    );
  }
  errors.push(...validateProbe(container.readinessProbe, `${path}.readinessProbe`));
  errors.push(...validatePorts(container.ports ?? [], `${path}.ports`));
  errors.push(...validateEnv(container.env ?? [], `${path}.env`));
  errors.push(...validateVolumeMounts(container.volumeMounts ?? [], volumes, `${path}.volumeMounts`));
  const pullPolicy = container.imagePullPolicy;
  if (!pullPolicy) errors.push(fieldErrors.required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pullPolicy)) errors.push(fieldErrors.notSupported(`${path}.imagePullPolicy`, pullPolicy, PULL_POLICIES));
  errors.push(...validateResources(container.resources, `${path}.resources`));
  return errors;
}

/** The containers of a pod spec (at least one, names unique); `volumes` are the names of its valid volumes. */
export function validateContainers(containers: Container[], volumes: ReadonlySet<string>, field: string): FieldError[] {
  if (containers.length === 0) return [fieldErrors.required(field)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((container, i) => {
    errors.push(...validateContainer(container, volumes, `${field}[${i}]`));
    if (names.has(container.name ?? '')) errors.push(fieldErrors.duplicate(`${field}[${i}].name`, container.name ?? ''));
    names.add(container.name ?? '');
  });
  return errors;
}

/** Init containers: checked as containers, named apart from every container, and without probes or hooks. */
export function validateInitContainers(
  initContainers: Container[],
  containers: Container[],
  volumes: ReadonlySet<string>,
  field: string,
): FieldError[] {
  if (initContainers.length === 0) return [];
  const errors = validateContainers(initContainers, volumes, field);
  const names = new Set(containers.map((c) => c.name));
  initContainers.forEach((container, i) => {
    const path = `${field}[${i}]`;
    if (names.has(container.name)) errors.push(fieldErrors.duplicate(`${path}.name`, container.name ?? ''));
    if (container.name) names.add(container.name);
    for (const part of ['lifecycle', 'livenessProbe', 'readinessProbe'] as const) {
      if (container[part]) errors.push(fieldErrors.invalid(`${path}.${part}`, container[part], 'must not be set for init containers'));
    }
  });
  return errors;
}
