import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { dns1123Subdomain, pathSegmentName } from '../../../apimachinery/validation/names';
import { RBAC_GROUP } from '../rbac.group';
import { Binding, RoleRef, Subject, SUBJECT_KINDS } from './binding.schema';

function validateRoleRef(ref: RoleRef | undefined, kinds: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const kind = ref?.kind ?? '';
  if (!kinds.includes(kind)) errors.push(fieldErrors.notSupported('roleRef.kind', kind, kinds));
  const group = ref?.apiGroup ?? '';
  if (group !== RBAC_GROUP) errors.push(fieldErrors.notSupported('roleRef.apiGroup', group, [RBAC_GROUP]));
  const name = ref?.name ?? '';
  if (!name) errors.push(fieldErrors.required('roleRef.name'));
  else for (const message of pathSegmentName(name, false)) errors.push(fieldErrors.invalid('roleRef.name', name, message));
  return errors;
}

/** A subject (upstream's ValidateRoleBindingSubject): a service account's in a cluster binding must name its namespace. */
function validateSubject(subject: Subject, namespaced: boolean, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = subject.name ?? '';
  if (!name) errors.push(fieldErrors.required(`${field}.name`));
  const group = subject.apiGroup ?? '';
  switch (subject.kind) {
    case SUBJECT_KINDS.serviceAccount:
      if (name) for (const message of dns1123Subdomain(name)) errors.push(fieldErrors.invalid(`${field}.name`, name, message));
      if (group !== '') errors.push(fieldErrors.notSupported(`${field}.apiGroup`, group, ['']));
      if (!namespaced && !subject.namespace) errors.push(fieldErrors.required(`${field}.namespace`));
      break;
    case SUBJECT_KINDS.user:
    case SUBJECT_KINDS.group:
      if (group !== RBAC_GROUP) errors.push(fieldErrors.notSupported(`${field}.apiGroup`, group, [RBAC_GROUP]));
      break;
    default:
      errors.push(fieldErrors.notSupported(`${field}.kind`, subject.kind ?? '', Object.values(SUBJECT_KINDS)));
  }
  return errors;
}

/** The checks of a RoleBinding (roleRef to a Role or ClusterRole) or ClusterRoleBinding (to a ClusterRole). */
export function validateBinding(binding: Binding, namespaced: boolean): FieldError[] {
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  return [
    ...validateRoleRef(binding.roleRef, kinds),
    ...(binding.subjects ?? []).flatMap((subject, i) => validateSubject(subject, namespaced, `subjects[${i}]`)),
  ];
}

/** A binding's roleRef cannot change: a new role means a new binding. */
export function validateBindingUpdate(binding: Binding, old: Binding): FieldError[] {
  const [ref, was] = [binding.roleRef ?? {}, old.roleRef ?? {}];
  const same = ref.apiGroup === was.apiGroup && ref.kind === was.kind && ref.name === was.name;
  return same ? [] : [fieldErrors.invalid('roleRef', old.roleRef, 'cannot change roleRef')];
}

/** v1's defaults: the roleRef's group, and a user's or group's apiGroup. */
export function defaultBinding(binding: Binding): void {
  if (binding.roleRef && !binding.roleRef.apiGroup) binding.roleRef.apiGroup = RBAC_GROUP;
  for (const subject of binding.subjects ?? []) {
    if (subject.apiGroup) continue;
    if (subject.kind === SUBJECT_KINDS.user || subject.kind === SUBJECT_KINDS.group) subject.apiGroup = RBAC_GROUP;
  }
}
