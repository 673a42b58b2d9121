import { StatusError } from '../../src/apimachinery/errors/status-error';
import { matchesLabels, parseLabelSelector } from '../../src/apimachinery/selectors/label-selector';

const parseError = (input: string): string => {
  try {
    parseLabelSelector(input);
  } catch (error) {
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).code).toBe(400);
    return (error as StatusError).message;
  }
  throw new Error(`"${input}" parsed`);
};

describe('parseLabelSelector', () => {
  it.each([
    ['', []],
    ['a=b', [{ key: 'a', operator: '=', values: ['b'] }]],
    ['a==b', [{ key: 'a', operator: '=', values: ['b'] }]],
    ['a!=b', [{ key: 'a', operator: '!=', values: ['b'] }]],
    ['a', [{ key: 'a', operator: 'exists', values: [] }]],
    ['!a', [{ key: 'a', operator: '!', values: [] }]],
    ['a=', [{ key: 'a', operator: '=', values: [''] }]],
    ['a>3', [{ key: 'a', operator: '>', values: ['3'] }]],
    ['a<-3', [{ key: 'a', operator: '<', values: ['-3'] }]],
    ['a in (z, y,y)', [{ key: 'a', operator: 'in', values: ['y', 'z'] }]],
    ['a notin ()', [{ key: 'a', operator: 'notin', values: [''] }]],
    [' b = 1 , a ', [{ key: 'a', operator: 'exists', values: [] }, { key: 'b', operator: '=', values: ['1'] }]],
    ['example.com/tier=web', [{ key: 'example.com/tier', operator: '=', values: ['web'] }]],
  ])('%j', (input, expected) => {
    expect(parseLabelSelector(input)).toEqual(expected);
  });

  it.each([
    ['a=b,', "found '', expected: identifier after ','"],
    ['a b', "found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['a in b', "found 'b', expected: '('"],
    ['a in (b c)', "found 'c', expected: ',', or ')'"],
    ['a>b', "for 'Gt', 'Lt' operators, the value must be an integer"],
    ['a!b', "found '!', expected: in, notin, =, ==, !=, gt, lt"],
    [',a', 'found \',\', expected: identifier'],
  ])('%j is refused', (input, wording) => {
    expect(parseError(input)).toContain(wording);
  });

  it('refuses keys and values that are not valid label keys and values', () => {
    expect(parseError('-a=b')).toContain('invalid label key "-a"');
    expect(parseError(`a=${'x'.repeat(64)}`)).toContain('invalid label value');
  });
});

describe('matchesLabels', () => {
  const labels = { app: 'web', tier: 'front', replicas: '5' };
  it.each([
    ['app=web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (db,web)', true],
    ['app notin (db,web)', false],
    ['missing notin (a)', true],
    ['missing in (a)', false],
    ['app', true],
    ['!app', false],
    ['!missing', true],
    ['replicas>4', true],
    ['replicas<5', false],
    ['app>1', false],
    ['app=web,tier=back', false],
    ['', true],
  ])('%j → %s', (selector, expected) => {
    expect(matchesLabels(parseLabelSelector(selector), labels)).toBe(expected);
  });

  it('treats absent labels as an empty set', () => {
    expect(matchesLabels(parseLabelSelector('!a,b!=c'), undefined)).toBe(true);
    expect(matchesLabels(parseLabelSelector('a'), null)).toBe(false);
  });

  it('compares integers exactly beyond the doubles', () => {
    expect(matchesLabels(parseLabelSelector('n>9007199254740992'), { n: '9007199254740993' })).toBe(true);
  });
});
