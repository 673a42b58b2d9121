import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';

const APPARMOR = 'apparmor.security.beta.kubernetes.io/';
const SECCOMP = 'seccomp.security.alpha.kubernetes.io/';
const SYSCTLS = 'security.alpha.kubernetes.io/sysctls';
const SYSCTL_PATTERN = '([a-z0-9]([-_a-z0-9]*[a-z0-9])?\\.)*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]';
const sysctlRe = new RegExp(`^${SYSCTL_PATTERN}$`);

const path = (key: string) => `metadata.annotations[${key}]`;

function apparmorErrors(key: string, value: string, profiles: string[]): FieldError[] {
  return profiles
    .filter((p) => p !== '' && p !== 'runtime/default' && !p.startsWith('localhost/'))
    .map((p) => fieldErrors.invalid(path(key), value, `invalid AppArmor profile name: ${JSON.stringify(p)}`));
}

function seccompErrors(key: string, profile: string): FieldError[] {
  if (profile === 'docker/default' || profile === 'unconfined') return [];
  if (!profile.startsWith('localhost/')) return [fieldErrors.invalid(path(key), profile, 'must be a valid seccomp profile')];
  const local = profile.slice('localhost/'.length);
  const errors: FieldError[] = [];
  if (local.startsWith('/')) errors.push(fieldErrors.invalid(path(key), local, 'must be a relative path'));
  if (local.split('/').includes('..')) errors.push(fieldErrors.invalid(path(key), local, "must not contain '..'"));
  return errors;
}

/** The AppArmor, seccomp and sysctl annotations a PodSecurityPolicy may carry. */
export function validatePolicyAnnotations(annotations: Record<string, string> = {}): FieldError[] {
  const errors: FieldError[] = [];
  for (const name of ['defaultProfileName', 'allowedProfileNames']) {
    const value = annotations[APPARMOR + name];
    if (value) errors.push(...apparmorErrors(APPARMOR + name, value, value.split(',')));
  }
  const seccompDefault = annotations[`${SECCOMP}defaultProfileName`];
  if (seccompDefault) errors.push(...seccompErrors(`${SECCOMP}defaultProfileName`, seccompDefault));
  const seccompAllowed = annotations[`${SECCOMP}allowedProfileNames`];
  for (const profile of seccompAllowed ? seccompAllowed.split(',') : []) {
    if (profile !== '*') errors.push(...seccompErrors(`${SECCOMP}allowedProfileNames`, profile));
  }
  const sysctls = annotations[SYSCTLS];
  (sysctls ? sysctls.split(',') : []).forEach((sysctl, i) => {
    if (sysctl.length > 253 || !sysctlRe.test(sysctl)) {
      errors.push(fieldErrors.invalid(`${path(SYSCTLS)}[${i}]`, sysctl, `must have at most 253 characters and match regex ${SYSCTL_PATTERN}`));
    }
  });
  return errors;
}
