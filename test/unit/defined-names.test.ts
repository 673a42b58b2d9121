import { byVersionPriority } from '../../src/apimachinery/meta/version-priority';
import { thirdPartyNames } from '../../src/defined-kinds/thirdparty/third-party-names';

describe('a ThirdPartyResource name', () => {
  it.each([
    ['cron-tab.stable.example.com', 'CronTab', 'stable.example.com', 'crontabs'],
    ['a-thing.example.com', 'AThing', 'example.com', 'athings'],
    ['policy.example.com', 'Policy', 'example.com', 'policies'],
    ['class.example.com', 'Class', 'example.com', 'classes'],
    ['endpoints.example.com', 'Endpoints', 'example.com', 'endpoints'],
  ])('%s is kind %s of group %s, served as %s', (name, kind, group, plural) => {
    expect(thirdPartyNames(name)).toEqual({ kind, group, plural });
  });

  it('upper-cases by subtracting 32, as 1.7 did, and needs three parts', () => {
    expect(thirdPartyNames('x-1.example.com')?.kind).toBe(`X${String.fromCharCode('1'.charCodeAt(0) - 32)}`);
    expect(thirdPartyNames('short.com')).toBeUndefined();
  });
});

it('orders versions as discovery does: GA, beta, alpha by number, then others alphabetically', () => {
  const versions = ['v1alpha1', 'foo', 'v1', 'v1beta1', 'v2', 'v1beta2', 'bar', 'v11alpha2', 'v10'];
  expect([...versions].sort(byVersionPriority)).toEqual(['v10', 'v2', 'v1', 'v1beta2', 'v1beta1', 'v11alpha2', 'v1alpha1', 'bar', 'foo']);
});
