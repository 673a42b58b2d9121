import { FieldError, fieldErrors } from '../../apimachinery/errors/field-error';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { looseBool } from '../../apimachinery/parameters/query';
import { ApiRequest } from './api-request';
import { queryValues, WriteOptionsKind } from './dry-run.reader';

/** The longest field manager name the apiserver accepts, in bytes. */
const FIELD_MANAGER_MAX_LENGTH = 128;

/** Who a write's managed fields are recorded for, and whether an apply takes over conflicting fields. */
export interface ManagerOptions {
  manager: string;
  force: boolean;
}

const printable = (char: string) => !/[\p{C}\p{Z}]/u.test(char) || char === ' ';

/**
 * The `fieldManager` and `force` of a create, update or patch, checked as the apiserver checks its options (422 on
 * `<Kind>Options.meta.k8s.io`): an apply needs a field manager, only an apply may force. Without a field manager a
 * write is recorded for its User-Agent's product name (what precedes the first `/`, printable, cut at 128 bytes).
 */
export function readManager(request: ApiRequest, kind: Exclude<WriteOptionsKind, 'DeleteOptions'>, apply = false): ManagerOptions {
  const fieldManager = queryValues(request.query, 'fieldManager').at(-1) ?? '';
  const forceValue = queryValues(request.query, 'force').at(-1);
  const errors: FieldError[] = [];
  if (!apply && forceValue !== undefined) errors.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
  if (apply && fieldManager === '') errors.push(fieldErrors.required('fieldManager', 'is required for apply patch'));
  if (Buffer.byteLength(fieldManager) > FIELD_MANAGER_MAX_LENGTH) errors.push(fieldErrors.tooLong('fieldManager', FIELD_MANAGER_MAX_LENGTH));
  const unprintable = [...fieldManager].findIndex((char) => !printable(char));
  if (unprintable >= 0) errors.push(fieldErrors.invalid('fieldManager', fieldManager, `invalid characters at ${unprintable}`));
  if (errors.length > 0) throw apiErrors.invalid({ group: 'meta.k8s.io', kind, resource: '' }, '', errors);
  return { manager: fieldManager || managerOfUserAgent(request.userAgent ?? ''), force: looseBool(forceValue) };
}

function managerOfUserAgent(userAgent: string): string {
  let manager = '';
  for (const char of userAgent.split('/')[0]) {
    if (!printable(char)) continue;
    if (Buffer.byteLength(manager + char) > FIELD_MANAGER_MAX_LENGTH) break;
    manager += char;
  }
  return manager;
}
