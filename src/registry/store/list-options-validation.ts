import { apiErrors } from '../../apimachinery/errors/status-error';
import { FieldError, fieldErrors } from '../../apimachinery/errors/field-error';
import { ListOptions } from './list-options';

export const EXACT = 'Exact';
export const NOT_OLDER_THAN = 'NotOlderThan';

const MATCH = 'resourceVersionMatch';
const MATCH_WITH_CONTINUE = 'resourceVersionMatch is forbidden when continue is provided';

/** The apiserver's rules for a list (its ValidateListOptions). */
function listErrors(options: ListOptions): FieldError[] {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (match !== undefined) {
    if (options.resourceVersion === undefined) {
      errors.push(fieldErrors.forbidden(MATCH, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (options.continue !== undefined) errors.push(fieldErrors.forbidden(MATCH, MATCH_WITH_CONTINUE));
    if (match !== EXACT && match !== NOT_OLDER_THAN) errors.push(fieldErrors.notSupported(MATCH, match, [EXACT, NOT_OLDER_THAN, '']));
    if (match === EXACT && options.resourceVersion === '0') {
      errors.push(fieldErrors.forbidden(MATCH, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (options.sendInitialEvents !== undefined) errors.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errors;
}

/** The rules for a watch, with watch-list served. */
function watchErrors(options: ListOptions): FieldError[] {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (options.sendInitialEvents !== undefined && match !== NOT_OLDER_THAN) {
    errors.push(fieldErrors.forbidden(MATCH, `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`));
  }
  if (match !== undefined) {
    if (options.sendInitialEvents === undefined) {
      errors.push(fieldErrors.forbidden(MATCH, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== NOT_OLDER_THAN) errors.push(fieldErrors.notSupported(MATCH, match, [NOT_OLDER_THAN]));
    if (options.continue !== undefined) errors.push(fieldErrors.forbidden(MATCH, MATCH_WITH_CONTINUE));
  }
  return errors;
}

/** A combination the apiserver refuses is a 422 on ListOptions.meta.k8s.io, as it answers. */
export function validateListOptions(options: ListOptions, watch: boolean): void {
  const errors = watch ? watchErrors(options) : listErrors(options);
  if (errors.length > 0) throw apiErrors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions', resource: '' }, '', errors);
}
