import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { Binding, SUBJECT_KINDS } from '../policy/binding.schema';

const SUBJECTS: readonly string[][] = [['subjects']];

/** The names of the subjects of one kind, comma-joined; a service account as `namespace/name`. */
function subjectsOf(binding: Binding, kind: string): string {
  return (binding.subjects ?? [])
    .filter((subject) => subject.kind === kind)
    .map((subject) => (kind === SUBJECT_KINDS.serviceAccount ? `${subject.namespace ?? ''}/${subject.name}` : subject.name))
    .join(', ');
}

/** `kubectl get rolebindings` and `clusterrolebindings`: NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export const BINDING_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Role', 'string', 'Role is the role being referenced.', [['roleRef']], (b) => `${(b as Binding).roleRef?.kind}/${(b as Binding).roleRef?.name}`),
  AGE_COLUMN,
  column('Users', 'string', 'Users in the binding.', SUBJECTS, (b) => subjectsOf(b as Binding, SUBJECT_KINDS.user), 1),
  column('Groups', 'string', 'Groups in the binding.', SUBJECTS, (b) => subjectsOf(b as Binding, SUBJECT_KINDS.group), 1),
  column('ServiceAccounts', 'string', 'ServiceAccounts in the binding.', SUBJECTS, (b) => subjectsOf(b as Binding, SUBJECT_KINDS.serviceAccount), 1),
];
