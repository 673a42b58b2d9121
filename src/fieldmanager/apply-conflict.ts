import { StatusError } from '../apimachinery/errors/status-error';
import { FieldSet, printPath } from './field-set';
import { Manager } from './managed-fields';

/** A manager as a conflict names it: `"kubectl"`, or `"name" using extensions/v1beta1` for an updater. */
function printManager(manager: Manager): string {
  let printed = JSON.stringify(manager.manager);
  if (manager.subresource) printed += ` with subresource ${JSON.stringify(manager.subresource)}`;
  return manager.operation === 'Update' ? `${printed} using ${manager.apiVersion}` : printed;
}

/**
 * The 409 of an apply that would change fields other managers own: a cause (FieldManagerConflict) per field, and a
 * message that lists them by manager, worded as the apiserver words it.
 */
export function applyConflict(conflicts: ReadonlyMap<Manager, FieldSet>): StatusError {
  const found = [...conflicts].flatMap(([manager, fields]) => fields.paths().map((path) => ({ manager, field: printPath(path) })));
  let message: string;
  if (found.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(found[0].manager)}: ${found[0].field}`;
  } else {
    const byManager = [...conflicts.keys()].sort((a, b) => (printManager(a) < printManager(b) ? -1 : 1));
    const lines = byManager.flatMap((manager) => [
      `conflicts with ${printManager(manager)}:`,
      ...found.filter((c) => c.manager === manager).map((c) => `- ${c.field}`),
    ]);
    message = `Apply failed with ${found.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, {
    causes: found.map(({ manager, field }) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(manager)}`, field })),
  });
}
