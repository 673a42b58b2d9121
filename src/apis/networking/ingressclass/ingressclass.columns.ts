import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { IngressClass } from './ingressclass.schema';

/** `kind.apiGroup/name`, as kubectl prints an IngressClass' parameters. */
function parameters(ingressClass: IngressClass): string {
  const reference = ingressClass.spec?.parameters;
  if (!reference) return '<none>';
  const kind = reference.apiGroup ? `${reference.kind}.${reference.apiGroup}` : reference.kind;
  return `${kind}/${reference.name}`;
}

/** `kubectl get ingressclasses`: NAME CONTROLLER PARAMETERS AGE. */
export const INGRESS_CLASS_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Controller', 'string', 'Controller that is responsible for handling this class.', [['spec', 'controller']], (c) => (c as IngressClass).spec?.controller ?? ''),
  column('Parameters', 'string', 'A reference to a resource with additional parameters.', [['spec', 'parameters']], (c) => parameters(c as IngressClass)),
  AGE_COLUMN,
];
