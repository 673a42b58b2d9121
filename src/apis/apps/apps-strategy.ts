import { FieldError, fieldErrors } from '../../apimachinery/errors/field-error';
import { deepEqual } from '../../apimachinery/meta/deep-equal';
import { StructSchema } from '../../apimachinery/schema/schema';
import { KindStrategy } from '../../registry/kind-definition';
import { PodController } from '../workloads/controller.types';

/** apps/v1 and v1beta2 forbid changing a controller's selector (extensions and apps/v1beta1 allow it). */
function validateSelectorUnchanged(object: PodController, old: PodController): FieldError[] {
  const selector = object.spec?.selector;
  return deepEqual(selector, old.spec?.selector) ? [] : [fieldErrors.invalid('spec.selector', selector ?? null, 'field is immutable')];
}

/**
 * An apps version of a kind: extensions' strategy over the same stored form, with the version's shape and defaults,
 * and (unless `fixedSelector` is false: apps/v1beta1) a selector that cannot change.
 */
export function appsStrategy(extensions: KindStrategy, shape: StructSchema, applyDefaults: KindStrategy['applyDefaults'], fixedSelector = true): KindStrategy {
  return {
    ...extensions,
    shape,
    applyDefaults,
    validateUpdate: fixedSelector
      ? (object: PodController, old: PodController) => [...extensions.validateUpdate(object, old), ...validateSelectorUnchanged(object, old)]
      : extensions.validateUpdate,
  };
}
