import { apiErrors } from '../../apimachinery/errors/status-error';
import { Query } from '../../apimachinery/parameters/query';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { cannotHandle, decodeObject, DecodeTarget } from '../../registry/decode-object';
import { duplicateFields } from '../codec/duplicate-fields';
import { bareType, JSON_TYPE, MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE } from '../codec/media-types';
import { ApiRequest } from './api-request';
import { queryValues, WriteOptionsKind } from './dry-run.reader';

/** What a write does with unknown and duplicate fields in its body (the `fieldValidation` query parameter). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

const DIRECTIVES: readonly FieldValidation[] = ['Ignore', 'Strict', 'Warn'];

/**
 * The directive of a create, update or patch. Without one the write warns, as the current apiserver's default is:
 * 1.7 dropped such fields silently, and its clients ignore the `Warning` header, so for them nothing changes. Any
 * other value is refused as the apiserver's options validation refuses it.
 */
export function readFieldValidation(query: Query, kind: Exclude<WriteOptionsKind, 'DeleteOptions'>): FieldValidation {
  const value = queryValues(query, 'fieldValidation').at(-1) ?? '';
  if (value === '') return 'Warn';
  if (DIRECTIVES.includes(value as FieldValidation)) return value as FieldValidation;
  const supported = DIRECTIVES.map((d) => JSON.stringify(d)).join(', ');
  throw apiErrors.invalid({ group: 'meta.k8s.io', kind, resource: '' }, '', [
    { type: 'FieldValueNotSupported', field: 'fieldValidation', message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported}` },
  ]);
}

const OPTIONS_KINDS: Partial<Record<ApiRequest['verb'], Exclude<WriteOptionsKind, 'DeleteOptions'>>> = {
  create: 'CreateOptions',
  update: 'UpdateOptions',
  patch: 'PatchOptions',
};

/** Bodies read as JSON objects, whose members may be given twice. */
const JSON_BODIES = new Set([JSON_TYPE, MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE]);

/**
 * Decodes a request's document as `target`, as the request's `fieldValidation` asks: a Strict write with unknown
 * or duplicate fields fails with the apiserver's strict decoding error; a Warn write gets one warning for each.
 * `document` is the body as parsed when `isBody` says so (a create's or a replacement's), else what a patch made.
 */
export function decodeValidated(request: ApiRequest, target: DecodeTarget, document: unknown, isBody = false): { object: KubeObject; warnings: string[] } {
  const mode = readFieldValidation(request.query, OPTIONS_KINDS[request.verb] ?? 'UpdateOptions');
  if (mode === 'Ignore') return { object: decodeObject(target, document), warnings: [] };
  const duplicate =
    request.body && JSON_BODIES.has(bareType(request.contentType)) ? duplicateFields(request.body.toString('utf8'), isBody ? document : undefined) : [];
  const unknown: string[] = [];
  const object = decodeObject(target, document, unknown);
  const messages = [...unknown.map((path) => `unknown field "${path}"`), ...duplicate.map((path) => `duplicate field "${path}"`)];
  if (mode === 'Strict' && messages.length > 0) throw cannotHandle(target, target.kind, `strict decoding error: ${messages.join(', ')}`);
  return { object, warnings: mode === 'Warn' ? messages : [] };
}
