import { nowTimestamp } from '../../../apimachinery/meta/kube-object';
import { CrdCondition, CustomResourceDefinition } from './crd.schema';
import { copyJson } from '../../../apimachinery/meta/json-value';

/**
 * Sets a condition of the definition's status, keeping its lastTransitionTime when its status does not change (as
 * the apiextensions controllers do).
 */
export function setCondition(crd: CustomResourceDefinition, condition: Omit<CrdCondition, 'lastTransitionTime'>): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const index = conditions.findIndex((c) => c.type === condition.type);
  const old = index >= 0 ? conditions[index] : undefined;
  const lastTransitionTime = old?.lastTransitionTime && old.status === condition.status ? old.lastTransitionTime : nowTimestamp();
  const next = { type: condition.type, status: condition.status, lastTransitionTime, reason: condition.reason, message: condition.message };
  if (index >= 0) conditions[index] = next;
  else conditions.push(next);
}

/**
 * The status a definition has as soon as it is written: its names accepted and its API established (this server has
 * no naming conflicts to wait for, and serves a definition as soon as every instance's feed delivers it), and its
 * storage version added to the versions objects may be stored in.
 */
export function settleStatus(crd: CustomResourceDefinition): void {
  const status = (crd.status ??= {});
  status.acceptedNames = copyJson(crd.spec.names ?? {});
  setCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
  setCondition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  const storage = crd.spec.versions?.find((v) => v.storage)?.name;
  const stored = status.storedVersions ?? [];
  if (storage && !stored.includes(storage)) status.storedVersions = [...stored, storage];
}
