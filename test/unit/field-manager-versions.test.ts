import { StatusError } from '../../src/apimachinery/errors/status-error';
import { KubeObject } from '../../src/apimachinery/meta/kube-object';
import { EVENTS_V1_CONVERSION } from '../../src/apis/events/event/event.v1.conversion';
import { EVENTS_V1_EVENT } from '../../src/apis/events/event/event.v1.schema';
import { EVENT } from '../../src/apis/core/event/event.schema';
import { structType } from '../../src/fieldmanager/apply-type';
import { FieldManager } from '../../src/fieldmanager/field-manager';
import { FieldSet } from '../../src/fieldmanager/field-set';
import { VersionConverter } from '../../src/fieldmanager/version-converter';
import { ConvertingFieldManager } from '../../src/registry/converting-field-manager';

/**
 * A field manager of a kind served in two versions (core/v1 Events, stored, and events.k8s.io/v1, converted):
 * every manager's fields stay in its version, and a write is compared in each manager's version.
 */
const CORE = 'v1';
const V1 = 'events.k8s.io/v1';
const FORMS = { [CORE]: { type: structType(EVENT), reset: new FieldSet() }, [V1]: { type: structType(EVENTS_V1_EVENT), reset: new FieldSet() } };

const versions: VersionConverter = {
  form: (apiVersion) => FORMS[apiVersion as keyof typeof FORMS],
  convert: (object, from, to) => {
    if (from === to) return object;
    const stored = from === V1 ? EVENTS_V1_CONVERSION.toStored(object) : object;
    return to === V1 ? EVENTS_V1_CONVERSION.fromStored(stored) : stored;
  },
};
const core = new FieldManager({ ...FORMS[CORE], apiVersion: CORE, versions });
const v1 = new ConvertingFieldManager({ ...FORMS[V1], apiVersion: V1, versions }, EVENTS_V1_CONVERSION);

const config = (apiVersion: string, fields: Record<string, unknown>): KubeObject => ({ apiVersion, kind: 'Event', metadata: { name: 'e' }, ...fields });
const conflictOf = (write: () => unknown) => {
  try {
    write();
  } catch (error) {
    return (error as StatusError).message;
  }
  return undefined;
};
const fieldsOf = (object: KubeObject, manager: string) => object.metadata.managedFields?.find((e) => e.manager === manager);

describe('a field manager across versions', () => {
  it('conflicts on a renamed field, names it in its owner’s version, and takes it over when forced', () => {
    const live = core.apply(undefined, config(CORE, { message: 'a', reason: 'R' }), 'old', false);
    expect(conflictOf(() => v1.apply(live, config(V1, { note: 'b' }), 'new', false))).toBe('Apply failed with 1 conflict: conflict with "old": .message');
    const forced = v1.apply(live, config(V1, { note: 'b' }), 'new', true);
    expect(forced.message).toBe('b');
    expect(fieldsOf(forced, 'old')).toMatchObject({ apiVersion: CORE, fieldsV1: { 'f:reason': {} } });
    expect(fieldsOf(forced, 'new')).toMatchObject({ apiVersion: V1, fieldsV1: { 'f:note': {} } });
    expect(conflictOf(() => core.apply(forced, config(CORE, { message: 'c' }), 'old', false))).toBe('Apply failed with 1 conflict: conflict with "new": .note');
  });

  it('takes from an updater of the other version what a write changes or removes', () => {
    const live = structuredClone(config(CORE, { message: 'a', reason: 'R' }));
    core.update(undefined, live, 'writer');
    const next = EVENTS_V1_CONVERSION.toStored({ ...EVENTS_V1_CONVERSION.fromStored(live), note: 'b', reason: undefined });
    v1.update(live, next, 'editor');
    expect(fieldsOf(next, 'writer')).toBeUndefined();
    expect(fieldsOf(next, 'editor')).toMatchObject({ operation: 'Update', apiVersion: V1, fieldsV1: { 'f:note': {} } });
  });

  it('removes what an applier stops applying in another version unless a manager of either version owns it', () => {
    let live = v1.apply(undefined, config(V1, { note: 'n', reason: 'R', action: 'A' }), 'mover', false);
    live = core.apply(live, config(CORE, { action: 'A' }), 'keeper', false);
    live = core.apply(live, config(CORE, { message: 'n' }), 'mover', false);
    expect(live).toMatchObject({ message: 'n', action: 'A' });
    expect(live).not.toHaveProperty('reason');
    expect(fieldsOf(live, 'mover')).toMatchObject({ apiVersion: CORE, fieldsV1: { 'f:message': {} } });
  });
});
