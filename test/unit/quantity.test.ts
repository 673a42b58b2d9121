import { compareQuantities, formatQuantity, parseQuantity, QUANTITY_FORMAT_ERROR } from '../../src/apimachinery/schema/quantity';

const canonical = (text: string) => formatQuantity(parseQuantity(text));

describe('resource quantities', () => {
  it.each([
    ['0', '0'],
    ['0.1', '100m'],
    ['1.1', '1100m'],
    ['1000m', '1'],
    ['1000k', '1M'],
    ['1.5Gi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['1023Ki', '1023Ki'],
    ['0.5Ki', '512'],
    ['-1.5Gi', '-1536Mi'],
    ['1e3', '1e3'],
    ['12e3', '12e3'],
    ['5e-1', '500e-3'],
    ['0.0000000001', '1n'],
    [' 2 ', '2'],
  ])('%j is written %j', (text, expected) => {
    expect(canonical(text)).toBe(expected);
  });

  it.each(['', 'abc', '1.2.3', '1Qi', 'Gi', '--1'])('%j is not a quantity', (text) => {
    expect(() => parseQuantity(text)).toThrow(QUANTITY_FORMAT_ERROR);
  });

  it('compares values across formats', () => {
    expect(compareQuantities(parseQuantity('1Ki'), parseQuantity('1024'))).toBe(0);
    expect(compareQuantities(parseQuantity('1k'), parseQuantity('1Ki'))).toBeLessThan(0);
    expect(compareQuantities(parseQuantity('2'), parseQuantity('1500m'))).toBeGreaterThan(0);
  });
});
