import { FieldError, fieldErrors } from '../../apimachinery/errors/field-error';
import { deepEqual } from '../../apimachinery/meta/deep-equal';
import { PodController } from '../workloads/controller.types';

/** apps/v1 and v1beta2 forbid changing a controller's selector (extensions and apps/v1beta1 allow it). */
export function validateSelectorUnchanged(object: PodController, old: PodController): FieldError[] {
  const selector = object.spec?.selector;
  return deepEqual(selector, old.spec?.selector) ? [] : [fieldErrors.invalid('spec.selector', selector ?? null, 'field is immutable')];
}
