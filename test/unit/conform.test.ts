import { conform, ShapeError } from '../../src/apimachinery/schema/conform';
import { inline, s, struct } from '../../src/apimachinery/schema/schema';

const PKG = 'test.widgets';
const WIDGET = struct(PKG, 'WidgetSpec', {
  replicas: [1, s.int32],
  size: [2, s.int64],
  name: [3, s.string],
  paused: [4, s.boolean],
  port: [5, s.intOrString],
  memory: [6, s.quantity],
  since: [7, s.time],
  extra: [8, s.any],
  tags: [9, s.stringList],
  labels: [10, s.stringMap],
  parts: [11, s.list(struct(PKG, 'Part', { id: [1, s.int32] }))],
  source: [12, struct(PKG, 'Source', { path: [1, s.string] }), inline],
});

const place = { struct: 'Widget', path: 'spec' };
const decode = (value: unknown) => conform(value, WIDGET, place);
const failure = (value: unknown): string => {
  try {
    decode(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ShapeError);
    return (error as Error).message;
  }
  throw new Error('decoded');
};

describe('conform', () => {
  it('keeps the known fields, drops unknown ones and null fields', () => {
    expect(decode({ name: 'a', unknown: 1, paused: null, extra: { anything: [1, 'x'] } })).toEqual({ name: 'a', extra: { anything: [1, 'x'] } });
  });

  it("takes int32's whole range, both ends", () => {
    expect(decode({ replicas: 2147483647, port: -2147483648 })).toEqual({ replicas: 2147483647, port: -2147483648 });
  });

  it('writes quantities in canonical form', () => {
    expect(decode({ memory: '1.5Gi' })).toEqual({ memory: '1536Mi' });
    expect(decode({ memory: 2 })).toEqual({ memory: '2' });
  });

  it("decodes null list items and map values to Go's zero values", () => {
    expect(decode({ tags: [null], labels: { a: null }, parts: [null] })).toEqual({ tags: [''], labels: { a: '' }, parts: [{}] });
  });

  it.each([
    [{ replicas: 'x' }, 'json: cannot unmarshal string into Go struct field WidgetSpec.spec.replicas of type int32'],
    [{ replicas: 1.5 }, 'of type int32'],
    [{ replicas: 2147483648 }, 'of type int32'],
    [{ port: 2147483648 }, 'of type intstr.IntOrString'],
    [{ size: 'x' }, 'of type int64'],
    [{ paused: 'true' }, 'cannot unmarshal string into Go struct field WidgetSpec.spec.paused of type bool'],
    [{ port: true }, 'of type intstr.IntOrString'],
    [{ since: 'yesterday' }, 'of type v1.Time'],
    [{ tags: 'a' }, 'cannot unmarshal string into Go struct field WidgetSpec.spec.tags of type []string'],
    [{ labels: [] }, 'of type map[string]string'],
    [{ parts: [{ id: 'x' }] }, 'Go struct field Part.spec.parts.id of type int32'],
    [[], 'cannot unmarshal array into Go struct field Widget.spec of type WidgetSpec'],
  ])('%j does not fit', (value, wording) => {
    expect(failure(value)).toContain(wording);
  });

  it('refuses an invalid quantity with its format error', () => {
    expect(failure({ memory: '1Qi' })).toContain('quantities must match the regular expression');
  });

  it("reads an embedded struct's fields from the enclosing object, as Go's JSON decoder does", () => {
    expect(decode({ path: '/data', source: { path: 'nested' } })).toEqual({ path: '/data' });
    expect(failure({ path: 1 })).toBe('json: cannot unmarshal number into Go struct field WidgetSpec.spec.path of type string');
  });
});
