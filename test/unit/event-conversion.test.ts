import { KubeObject } from '../../src/apimachinery/meta/kube-object';
import { fieldLabelValue } from '../../src/apimachinery/selectors/field-labels';
import { EVENT_FIELD_LABELS, EVENTS_V1_FIELD_LABELS } from '../../src/apis/core/event/event.field-labels';
import { EVENT_STRATEGY } from '../../src/apis/core/event/event.strategy';
import { EVENTS_V1_CONVERSION } from '../../src/apis/events/event/event.v1.conversion';
import { fieldLabelSql } from '../../src/storage/objects/field-label-sql';

const reference = (name: string) => ({ kind: 'Pod', namespace: 'default', name, uid: `${name}-uid`, apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec' });

/** A core/v1 Event with every field set, as the store keeps it. */
const CORE: KubeObject = {
  metadata: { name: 'e', namespace: 'default', labels: { a: 'b' } },
  involvedObject: reference('web'),
  reason: 'Pulled',
  message: 'pulled',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:01:00Z',
  count: 2,
  type: 'Normal',
  eventTime: '2026-01-01T00:00:00.000001Z',
  series: { count: 3, lastObservedTime: '2026-01-01T00:02:00.000002Z' },
  action: 'Pull',
  related: reference('other'),
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
};

describe('events.k8s.io/v1 Events over core/v1 storage', () => {
  it('renames every field that the versions name differently, in the served version’s order', () => {
    const served = EVENTS_V1_CONVERSION.fromStored(CORE);
    expect(Object.keys(served)).toEqual([
      'metadata', 'eventTime', 'series', 'reportingController', 'reportingInstance', 'action', 'reason', 'regarding', 'related', 'note', 'type',
      'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount',
    ]);
    expect(served).toMatchObject({ regarding: CORE.involvedObject, note: 'pulled', deprecatedSource: CORE.source, deprecatedCount: 2, reportingController: 'kubelet' });
  });

  it('loses nothing either way', () => {
    expect(EVENTS_V1_CONVERSION.toStored(EVENTS_V1_CONVERSION.fromStored(CORE))).toEqual(CORE);
    const served = EVENTS_V1_CONVERSION.fromStored(CORE);
    expect(EVENTS_V1_CONVERSION.fromStored(EVENTS_V1_CONVERSION.toStored(served))).toEqual(served);
  });

  it('leaves out the reporting fields core/v1 writes empty, which the stored form gets back by default', () => {
    const legacy: KubeObject = { metadata: { name: 'old' }, involvedObject: {}, source: {}, reportingComponent: '', reportingInstance: '' };
    const served = EVENTS_V1_CONVERSION.fromStored(legacy);
    expect(served).toEqual({ metadata: { name: 'old' }, regarding: {}, deprecatedSource: {} });
    const stored = EVENTS_V1_CONVERSION.toStored(served);
    EVENT_STRATEGY.applyDefaults(stored);
    expect(stored).toEqual(legacy);
    expect(legacy.reportingComponent).toBe(''); // the conversion does not change what it is given
  });
});

describe('Event field labels', () => {
  it('select `source` by the old reporter, else by the new one, in memory and in SQL alike', () => {
    const source = EVENT_FIELD_LABELS.source;
    expect(fieldLabelValue(source, CORE)).toBe('kubelet');
    expect(fieldLabelValue(source, { ...CORE, source: {}, reportingComponent: 'ctrl' })).toBe('ctrl');
    expect(fieldLabelValue(source, { metadata: {} })).toBe('');
    expect(fieldLabelSql(source)).toBe(`COALESCE(NULLIF(body #>> '{source,component}', ''), body #>> '{reportingComponent}', '')`);
  });

  it('name the same stored fields under each version’s names', () => {
    expect(Object.keys(EVENTS_V1_FIELD_LABELS).sort()).toEqual(
      ['metadata.name', 'metadata.namespace', 'reason', 'reportingController', 'source', 'type', ...['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => `regarding.${f}`)].sort(),
    );
    expect(EVENTS_V1_FIELD_LABELS['regarding.name']).toEqual(EVENT_FIELD_LABELS['involvedObject.name']);
    expect(EVENTS_V1_FIELD_LABELS.reportingController).toEqual(EVENT_FIELD_LABELS.reportingComponent);
  });
});
