import { omitEmpty } from '../../src/apimachinery/schema/omit-empty';
import { alwaysWritten, inline, pointer, required, s, struct } from '../../src/apimachinery/schema/schema';
import { definedKind, OBJECT_META } from '../../src/apimachinery/meta/object-meta-schema';
import { DEPLOYMENT } from '../../src/apis/extensions/deployment/deployment.schema';
import { DAEMON_SET } from '../../src/apis/extensions/daemonset/daemonset.schema';

const PKG = 'test.omitempty';
const PART = struct(PKG, 'Part', { name: [1, s.string, alwaysWritten], size: [2, s.int32], labels: [3, s.stringMap] });
const WIDGET = struct(PKG, 'Widget', {
  metadata: [1, OBJECT_META],
  name: [2, s.string],
  count: [3, s.int64],
  paused: [4, s.boolean],
  data: [5, s.bytes],
  tags: [6, s.stringList],
  labels: [7, s.stringMap],
  replicas: [8, s.int32, pointer],
  enabled: [9, s.boolean, pointer],
  verbs: [10, s.stringList, required],
  ready: [11, s.int32, alwaysWritten],
  part: [12, PART],
  parts: [13, s.list(PART)],
  byName: [14, s.map(PART)],
  port: [15, s.intOrString],
  memory: [16, s.quantity],
  extra: [17, s.any],
  source: [18, struct(PKG, 'Source', { path: [1, s.string] }), inline],
});

describe('omitEmpty', () => {
  it("leaves out what Go's omitempty leaves out: empty lists, maps and strings, false and 0", () => {
    const object = { name: '', count: 0, paused: false, data: '', tags: [], labels: {}, metadata: { annotations: {}, labels: {}, finalizers: [] } };
    expect(omitEmpty(WIDGET, object)).toEqual({ metadata: {} });
  });

  it('keeps what is set', () => {
    const object = { name: 'a', count: 2, paused: true, tags: [''], labels: { a: '' }, metadata: { annotations: { a: 'b' } } };
    expect(omitEmpty(WIDGET, structuredClone(object))).toEqual(object);
  });

  it('keeps the zero values of pointers, and of fields written always or required', () => {
    const object = { replicas: 0, enabled: false, verbs: [], ready: 0 };
    expect(omitEmpty(WIDGET, structuredClone(object))).toEqual(object);
  });

  it('keeps structs, empty or not, and the leaves Go holds as structs', () => {
    const object = { part: {}, port: 0, memory: '0', extra: {}, metadata: {} };
    expect(omitEmpty(WIDGET, structuredClone(object))).toEqual(object);
  });

  it('goes into structs, the items of lists and the values of maps, and the fields of inline structs', () => {
    const object = {
      part: { name: '', size: 0, labels: {} },
      parts: [{ name: 'x', size: 0 }, {}],
      byName: { a: { name: '', labels: {} } },
      path: '',
    };
    expect(omitEmpty(WIDGET, object)).toEqual({ part: { name: '' }, parts: [{ name: 'x' }, {}], byName: { a: { name: '' } } });
  });

  it('leaves the members a struct does not declare alone', () => {
    expect(omitEmpty(WIDGET, { kind: 'Widget', apiVersion: '', other: {} })).toEqual({ kind: 'Widget', apiVersion: '', other: {} });
  });

  it('changes the object in place', () => {
    const object = { labels: {} };
    expect(omitEmpty(WIDGET, object)).toBe(object);
    expect(object).toEqual({});
  });

  it('leaves objects of declared kinds as they were sent', () => {
    const kind = definedKind('test.defined', 'CronTab', { type: 'object' });
    const object = { metadata: { annotations: {} }, spec: { tags: [], name: '' } };
    expect(omitEmpty(kind, structuredClone(object))).toEqual(object);
  });

  it('keeps the Deployment fields behind pointers and drops the others', () => {
    const pointers = { replicas: 0, revisionHistoryLimit: 0, progressDeadlineSeconds: 0 };
    const spec = { ...pointers, minReadySeconds: 0, paused: false };
    const object = omitEmpty(DEPLOYMENT, { metadata: { annotations: {} }, spec, status: { collisionCount: 0, replicas: 0 } });
    expect(object).toEqual({ metadata: {}, spec: pointers, status: { collisionCount: 0 } });
  });

  it('keeps the DaemonSet status counts Go writes always (no omitempty) and drops those it omits', () => {
    const written = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    const status = { ...written, numberAvailable: 0, updatedNumberScheduled: 0 };
    expect(omitEmpty(DAEMON_SET, { status }).status).toEqual(written);
  });
});
