import { duplicateFields } from '../../src/apiserver/codec/duplicate-fields';

const found = (text: string) => [duplicateFields(text), duplicateFields(text, JSON.parse(text))];

it('finds each member given twice, with its path, whether or not the parse is at hand', () => {
  for (const text of [
    '{"a":{"b":1,"b":2,"c":[{"x":1,"x":2}],"d\\u0065":1,"de":2}}',
    '{"a" : {"b":1, "b" :2, "c":[{"x":1,"x":2}], "d\\u0065":1, "de":2}}',
  ]) {
    expect(found(text)).toEqual([
      ['a.b', 'a.c[0].x', 'a.de'],
      ['a.b', 'a.c[0].x', 'a.de'],
    ]);
  }
});

it('finds none where there are none, also when values hold what looks like names', () => {
  for (const text of ['{}', '[]', '"x"', '{"a":"\\":b","c":["d\\":"],"e":{"f":null}}', '{"k":"{\\"a\\":1,\\"a\\":2}"}', '{"a" :1,"b":2}']) {
    expect(found(text)).toEqual([[], []]);
  }
});

it('is not fooled by a duplicate whose colon follows a space when the rest balances the count', () => {
  // one `":` for one parsed member would pass for unique: the spaced colon sends it to the scan
  const text = '{"a" :1,"a":2}';
  expect(found(text)).toEqual([['a'], ['a']]);
});
