import { RawBody } from '../codec/body-decoder';
import { APPLY_PATCH_TYPE, bareType, JSON_PATCH_TYPE, MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE } from '../codec/media-types';
import { unstorableReason } from '../../apimachinery/meta/storable';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { applyJsonPatch } from '../../apimachinery/patch/json-patch';
import { applyMergePatch } from '../../apimachinery/patch/merge-patch';
import { applyStrategicMergePatch } from '../../apimachinery/patch/strategic-merge-patch';
import { TypeFacts } from '../../apimachinery/patch/strategic-merge-schema';

export const PATCH_TYPES = [JSON_PATCH_TYPE, MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE] as const;

export type PatchType = (typeof PATCH_TYPES)[number];

/** A PATCH request body, read once and applied to every state of the object an update tries. */
export type Patch =
  | { type: typeof JSON_PATCH_TYPE | typeof MERGE_PATCH_TYPE; document: unknown }
  | { type: typeof STRATEGIC_MERGE_PATCH_TYPE; document: unknown; schema: TypeFacts };

/**
 * Reads a PATCH body. The Content-Type must be a patch type (415 otherwise, and for a strategic merge patch of a
 * type without `schema`, which accepts only the other two); the body must be JSON (400 otherwise).
 */
export function decodePatch(contentType: string | undefined, body: RawBody, schema: TypeFacts | undefined): Patch {
  const type = PATCH_TYPES.find((t) => t === bareType(contentType));
  if (!type) throw apiErrors.unsupportedMediaType([...PATCH_TYPES, APPLY_PATCH_TYPE]);
  if (type !== STRATEGIC_MERGE_PATCH_TYPE) return { type, document: parseJson(body) };
  if (!schema) throw apiErrors.unsupportedMediaType([JSON_PATCH_TYPE, MERGE_PATCH_TYPE, APPLY_PATCH_TYPE]);
  return { type, document: parseJson(body), schema };
}

/** The patch as JSON values, held to the same limits as any body (nesting, strings) before the engines recurse. */
function parseJson(body: RawBody): unknown {
  const text = (body ?? Buffer.alloc(0)).toString('utf8');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw apiErrors.badRequest(`the patch is not valid JSON: ${text.trim() === '' ? 'the body is empty' : (error as Error).message}`);
  }
  const unstorable = unstorableReason(document);
  if (unstorable) throw apiErrors.badRequest(`the patch is not valid JSON: ${unstorable}`);
  return document;
}

/** The JSON form of an object after the patch; `current` is left as it was. */
export function applyPatch(patch: Patch, current: Record<string, unknown>): unknown {
  switch (patch.type) {
    case JSON_PATCH_TYPE:
      return applyJsonPatch(current, patch.document);
    case MERGE_PATCH_TYPE:
      return applyMergePatch(current, patch.document);
    case STRATEGIC_MERGE_PATCH_TYPE:
      return applyStrategicMergePatch(current, patch.document, patch.schema);
  }
}
