import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { validateAnnotations, validateLabels } from '../../../apimachinery/meta/object-meta-validation';
import { dns1123Label, dns1123Subdomain } from '../../../apimachinery/validation/names';
import { validateContainers, validateInitContainers } from './container.validation';
import { validateReadOnlyPersistentDisks, validateVolumes } from './volume.validation';
import { DNS_POLICIES, PodSpec, PodTemplateSpec, RESTART_POLICIES } from './pod-template.schema';


function validateChoice(value: string | undefined, supported: string[], field: string): FieldError[] {
  if (!value) return [fieldErrors.required(field)];
  return supported.includes(value) ? [] : [fieldErrors.notSupported(field, value, supported)];
}

function validatePodSpec(spec: PodSpec, field: string): FieldError[] {
  const volumes = validateVolumes(spec.volumes ?? [], `${field}.volumes`);
  const errors = [
    ...volumes.errors,
    ...validateContainers(spec.containers ?? [], volumes.names, `${field}.containers`),
    ...validateInitContainers(spec.initContainers ?? [], spec.containers ?? [], volumes.names, `${field}.initContainers`),
    ...validateChoice(spec.restartPolicy, RESTART_POLICIES, `${field}.restartPolicy`),
    ...validateChoice(spec.dnsPolicy, DNS_POLICIES, `${field}.dnsPolicy`),
    ...validateLabels(spec.nodeSelector, `${field}.nodeSelector`),
  ];
  const named: [string, string | undefined, (value: string) => string[]][] = [
    ['serviceAccountName', spec.serviceAccountName, dns1123Subdomain],
    ['hostname', spec.hostname, dns1123Label],
    ['subdomain', spec.subdomain, dns1123Label],
  ];
  for (const [name, value, rule] of named) {
    if (value) for (const message of rule(value)) errors.push(fieldErrors.invalid(`${field}.${name}`, value, message));
  }
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds <= 0) {
    errors.push(fieldErrors.invalid(`${field}.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must be greater than 0'));
  }
  return errors;
}

/** The apiserver's ValidatePodTemplateSpec; note that it reports the template's labels at `<field>.labels`. */
export function validatePodTemplate(template: PodTemplateSpec, field: string): FieldError[] {
  return [
    ...validateLabels(template.metadata?.labels, `${field}.labels`),
    ...validateAnnotations(template.metadata?.annotations, `${field}.annotations`),
    ...validatePodSpec(template.spec ?? {}, `${field}.spec`),
  ];
}

/**
 * What a controller's template needs besides a valid pod: pods that always restart, no deadline,
 * and, when `readOnlyDisksNeeded`, GCE disks mounted read-only.
 */
export function validateControllerTemplate(template: PodTemplateSpec, field: string, readOnlyDisksNeeded: boolean): FieldError[] {
  const spec = template.spec ?? {};
  const errors = validatePodTemplate(template, field);
  if (readOnlyDisksNeeded) errors.push(...validateReadOnlyPersistentDisks(spec.volumes ?? [], `${field}.spec.volumes`));
  if (spec.restartPolicy !== 'Always') errors.push(fieldErrors.notSupported(`${field}.spec.restartPolicy`, spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds !== undefined) {
    errors.push(fieldErrors.invalid(`${field}.spec.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must not be specified'));
  }
  return errors;
}
