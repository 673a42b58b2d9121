import { JsonPath, ListQuery, ListRange } from '../../storage/objects/list-query';
import { KindDefinition } from '../kind-definition';
import { ListOptions } from './list-options';

/**
 * The object storage's query for a list's options: the selectors with each field resolved to where the kind keeps
 * it, in `namespace` (unset: every namespace), over `range`, each body cut down to `projection` when the answer needs
 * only those parts.
 */
export function listQuery(
  def: KindDefinition,
  namespace: string | undefined,
  options: ListOptions,
  range: ListRange = {},
  projection?: readonly JsonPath[],
): ListQuery {
  return {
    namespace,
    labels: options.labels,
    fields: options.fields.map(({ field, operator, value }) => ({ label: def.strategy.fieldLabels[field], operator, value })),
    onlyInitialized: !options.includeUninitialized,
    ...range,
    projection,
  };
}
