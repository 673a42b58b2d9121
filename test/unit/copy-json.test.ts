import { copyJson } from '../../src/apimachinery/meta/json-value';

describe('copyJson', () => {
  it('copies every object and array of a JSON value, sharing nothing with it', () => {
    const value = { metadata: { name: 'web', labels: { a: 'b' } }, spec: { list: [{ x: 1 }, 'two', null, true] }, missing: undefined };
    const copy = copyJson(value);
    expect(copy).toStrictEqual(value);
    copy.metadata.labels.a = 'changed';
    (copy.spec.list[0] as { x: number }).x = 2;
    expect(value.metadata.labels.a).toBe('b');
    expect(value.spec.list[0]).toEqual({ x: 1 });
  });

  it('keeps a member named __proto__ as plain data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const copy = copyJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(copy.__proto__).toEqual({ polluted: true });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('copies values that are not JSON (a typed array) as structuredClone does', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const copy = copyJson({ bytes });
    expect(copy.bytes).toBeInstanceOf(Uint8Array);
    expect(copy.bytes).not.toBe(bytes);
    expect([...copy.bytes]).toEqual([1, 2, 3]);
  });
});
