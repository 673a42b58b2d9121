import { decodeDocument } from '../codec/body-decoder';
import { apiErrors, StatusError } from '../../apimachinery/errors/status-error';
import { formatValue } from '../../apimachinery/errors/field-error';
import { isPlainObject } from '../../apimachinery/meta/kube-object';
import { int32Param, param, Query, strictBool } from '../../apimachinery/parameters/query';
import { DeleteOptions, PROPAGATION_POLICIES } from '../../registry/store/delete-options';
import { ApiRequest } from './api-request';
import { dryRunOf, queryValues } from './dry-run.reader';

function invalidOptions(options: unknown, detail: string): StatusError {
  const message = `Invalid value: ${formatValue(options)}: ${detail}`;
  return new StatusError(422, 'Invalid', ` "" is invalid: : ${message}`, {
    causes: [{ reason: 'FieldValueInvalid', message, field: '' }],
  });
}

function fromBody(document: unknown): DeleteOptions {
  const cannotDecode = (detail: string) => apiErrors.badRequest(`unable to decode DeleteOptions: ${detail}`);
  if (!isPlainObject(document)) throw cannotDecode('the body is not a JSON object');
  if (document.kind !== undefined && document.kind !== '' && document.kind !== 'DeleteOptions') {
    throw cannotDecode(`expected kind DeleteOptions, got ${JSON.stringify(document.kind)}`);
  }
  const options: DeleteOptions = {};
  const { gracePeriodSeconds, preconditions, orphanDependents, propagationPolicy, dryRun } = document;
  if (gracePeriodSeconds !== undefined && gracePeriodSeconds !== null) {
    if (!Number.isInteger(gracePeriodSeconds) || Math.abs(gracePeriodSeconds as number) >= 2 ** 63) {
      throw cannotDecode('gracePeriodSeconds must be an int64');
    }
    options.gracePeriodSeconds = gracePeriodSeconds as number;
  }
  if (preconditions !== undefined && preconditions !== null) {
    if (!isPlainObject(preconditions) || (preconditions.uid != null && typeof preconditions.uid !== 'string')) {
      throw cannotDecode('preconditions must be an object with a string uid');
    }
    if (preconditions.uid) options.preconditions = { uid: preconditions.uid as string };
  }
  if (orphanDependents !== undefined && orphanDependents !== null) {
    if (typeof orphanDependents !== 'boolean') throw cannotDecode('orphanDependents must be a boolean');
    options.orphanDependents = orphanDependents;
  }
  if (propagationPolicy !== undefined && propagationPolicy !== null) {
    if (typeof propagationPolicy !== 'string') throw cannotDecode('propagationPolicy must be a string');
    options.propagationPolicy = propagationPolicy as DeleteOptions['propagationPolicy'];
  }
  if (dryRun !== undefined && dryRun !== null) {
    if (!Array.isArray(dryRun) || dryRun.some((v) => typeof v !== 'string')) {
      throw cannotDecode('dryRun must be a list of strings');
    }
    if (dryRunOf(dryRun, 'DeleteOptions')) options.dryRun = true;
  }
  return options;
}

/** The options a query carries; a delete-collection's query carries only `dryRun` (a parameter 1.7 did not have). */
function fromQuery(query: Query, all: boolean): DeleteOptions {
  const options: DeleteOptions = dryRunOf(queryValues(query, 'dryRun'), 'DeleteOptions') ? { dryRun: true } : {};
  if (!all) return options;
  const grace = int32Param(query, 'gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const orphan = param(query, 'orphanDependents');
  if (orphan !== undefined) options.orphanDependents = strictBool(orphan);
  const policy = param(query, 'propagationPolicy');
  if (policy) options.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  return options;
}

/**
 * The DeleteOptions of a request: from the body when there is one (the query is then ignored), else from the query
 * (single deletes only: a delete-collection reads options from its body alone, but for `dryRun`). A `dryRun` in the
 * query counts even beside a body: a client that asked for a dry run anywhere gets one, never a real delete. The
 * options name the request's user, whom the write admissions check.
 */
export function readDeleteOptions(request: ApiRequest, queryAllowed: boolean): DeleteOptions {
  const hasBody = request.body !== undefined && request.body.length > 0;
  const options = hasBody
    ? fromBody(decodeDocument(request.body, request.contentType, 'DeleteOptions'))
    : fromQuery(request.query, queryAllowed);
  if (hasBody && dryRunOf(queryValues(request.query, 'dryRun'), 'DeleteOptions')) options.dryRun = true;
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    throw invalidOptions(options, 'OrphanDependents and DeletionPropagation cannot be both set');
  }
  if (options.propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(options.propagationPolicy)) {
    throw invalidOptions(options, 'DeletionPropagation need to be one of "Foreground", "Background", "Orphan" or nil');
  }
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) {
    throw invalidOptions(options, 'gracePeriodSeconds must be a non-negative integer');
  }
  return { ...options, user: request.user };
}
