import { conform, ShapeError } from '../../src/apimachinery/schema/conform';
import { s } from '../../src/apimachinery/schema/schema';

const WIDGET = s.struct('WidgetSpec', {
  replicas: s.int32,
  size: s.int64,
  name: s.string,
  paused: s.boolean,
  port: s.intOrString,
  memory: s.quantity,
  since: s.time,
  extra: s.any,
  tags: s.stringList,
  labels: s.stringMap,
  parts: s.list(s.struct('Part', { id: s.int32 })),
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
});
