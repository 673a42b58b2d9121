import { applyOperation, Operation } from 'fast-json-patch';
import { apiErrors } from '../errors/status-error';
import { isPlainObject } from '../meta/kube-object';
import { copyJson } from '../meta/json-value';

const OPERATIONS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];

const describe = (operation: unknown) => JSON.stringify(operation);

/** Refuses what the library would accept beyond RFC 6902: its private `_get` operation, a move into itself. */
function checkOperations(patch: unknown): Operation[] {
  if (!Array.isArray(patch)) throw apiErrors.badRequest('a JSON patch must be a JSON array of operations');
  patch.forEach((operation, index) => {
    if (!isPlainObject(operation) || !OPERATIONS.includes(operation.op as string)) {
      throw apiErrors.badRequest(`JSON patch operation ${index} ${describe(operation)}: unknown operation, expected one of ${OPERATIONS.join(', ')}`);
    }
    const { op, from, path } = operation;
    if (op === 'move' && typeof from === 'string' && typeof path === 'string' && path.startsWith(`${from}/`)) {
      throw apiErrors.badRequest(`JSON patch operation ${index} ${describe(operation)}: a value cannot be moved into itself`);
    }
  });
  return patch as Operation[];
}

/**
 * Applies an RFC 6902 JSON patch to a copy of `document`. Any operation that fails (a missing path, a bad index, a
 * failing `test`) fails the whole patch with 400.
 */
export function applyJsonPatch(document: unknown, patch: unknown): unknown {
  const operations = checkOperations(patch);
  let patched = copyJson(document);
  // one operation at a time: the library's own loop reports every validation failure as operation 0
  operations.forEach((operation, index) => {
    try {
      patched = applyOperation(patched, copyJson(operation), true, true, true, index).newDocument;
    } catch (error) {
      // the library's message is followed by the whole document on further lines
      const reason = String((error as Error).message).split('\n')[0];
      throw apiErrors.badRequest(`the JSON patch could not be applied: operation ${index} ${describe(operation)}: ${reason}`);
    }
  });
  return patched;
}
