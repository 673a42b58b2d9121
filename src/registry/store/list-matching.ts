import { KubeObject } from '../../apimachinery/meta/kube-object';
import { fieldLabelValue } from '../../apimachinery/selectors/field-labels';
import { matchesLabels } from '../../apimachinery/selectors/label-selector';
import { KindDefinition } from '../kind-definition';
import { ListOptions } from './list-options';

/** Whether an object in memory (a watch event's) is one the options select, as a list's statement would select it. */
export function matchesListOptions(def: KindDefinition, options: ListOptions, object: KubeObject): boolean {
  if (!options.includeUninitialized && object.metadata.initializers) return false;
  if (!matchesLabels(options.labels, object.metadata.labels)) return false;
  return options.fields.every(({ field, operator, value }) => {
    const actual = fieldLabelValue(def.strategy.fieldLabels[field], object);
    return operator === '=' ? actual === value : actual !== value;
  });
}
