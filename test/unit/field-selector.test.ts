import { StatusError } from '../../src/apimachinery/errors/status-error';
import { parseFieldSelector } from '../../src/apimachinery/selectors/field-selector';

describe('parseFieldSelector', () => {
  it.each([
    ['', []],
    ['metadata.name=a', [{ field: 'metadata.name', operator: '=', value: 'a' }]],
    ['metadata.name==a', [{ field: 'metadata.name', operator: '=', value: 'a' }]],
    ['metadata.name!=a', [{ field: 'metadata.name', operator: '!=', value: 'a' }]],
    ['metadata.name=', [{ field: 'metadata.name', operator: '=', value: '' }]],
    [
      'a=1,,b!=2',
      [
        { field: 'a', operator: '=', value: '1' },
        { field: 'b', operator: '!=', value: '2' },
      ],
    ],
    ['a=x\\,y\\=z\\\\', [{ field: 'a', operator: '=', value: 'x,y=z\\' }]],
  ])('%j', (input, expected) => {
    expect(parseFieldSelector(input)).toEqual(expected);
  });

  it.each([
    ['name', "invalid selector: 'name'; can't understand 'name'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: ='],
    ['a=\\n', 'invalid field selector: invalid escape sequence: \\n'],
  ])('%j is a 400', (input, message) => {
    let caught: unknown;
    try {
      parseFieldSelector(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect([(caught as StatusError).code, (caught as StatusError).message]).toEqual([400, message]);
  });
});
