import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../../registry/store/deletion-policy';
import { qualifiedName } from '../../../apimachinery/validation/names';

/** The finalizer of a namespace's content: the namespace controller removes it once the namespace is empty. */
export const KUBERNETES_FINALIZER = 'kubernetes';

const STANDARD_FINALIZERS = [KUBERNETES_FINALIZER, ORPHAN_FINALIZER, FOREGROUND_FINALIZER];

/** spec.finalizers: qualified names, each either standard or with a domain prefix (as upstream's validateFinalizerName). */
export function validateSpecFinalizers(finalizers: readonly string[] | undefined): FieldError[] {
  return (finalizers ?? []).flatMap((finalizer, index) => {
    const field = `spec.finalizers[${index}]`;
    const messages = qualifiedName(finalizer);
    if (messages.length > 0) return messages.map((message) => fieldErrors.invalid(field, finalizer, message));
    if (!finalizer.includes('/') && !STANDARD_FINALIZERS.includes(finalizer)) {
      return [fieldErrors.invalid(field, finalizer, 'name is neither a standard finalizer name nor is it fully qualified')];
    }
    return [];
  });
}
