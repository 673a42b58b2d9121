/** An events.k8s.io/v1 Event in `default` with every field that version has, as a controller of today writes one. */
export const v1Event = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2026-01-01T00:00:00.123456Z',
  reportingController: 'example.com/operator',
  reportingInstance: 'operator-0',
  action: 'Reconcile',
  reason: 'Synced',
  regarding: { kind: 'ConfigMap', namespace: 'default', name: 'settings' },
  related: { kind: 'Pod', namespace: 'default', name: 'operator-0' },
  note: 'settings synced',
  type: 'Normal',
  series: { count: 2, lastObservedTime: '2026-01-01T00:05:00.000001Z' },
  ...extra,
});
