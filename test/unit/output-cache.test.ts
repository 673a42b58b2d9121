import { ENTRY_CHARS, LIST_ITEMS_REMEMBERED, OutputCache } from '../../src/storage/objects/output-cache';
import { OutputItem } from '../../src/storage/objects/read-form';

const item = (resourceVersion: string, rest = '{"spec": {}}'): OutputItem => ({ resourceVersion, metadata: '{"name": "x"}', rest });
const KIND = { group: 'apps', resource: 'deployments' };
const row = (name: string, resourceVersion: string) => ({ namespace: 'ns', name, resource_version: resourceVersion });

/** One read of `list` returning `rows` (name, resourceVersion), as ObjectStore does it; the items it answers. */
function read(cache: OutputCache, list: string, rows: [string, string][]) {
  const reading = cache.reading(KIND, list);
  const items = rows.map(([name, version]) => reading.kept({ namespace: 'ns', name }, reading.held(row(name, version)) ?? item(version)));
  reading.done();
  return { known: reading.known, items };
}

describe('OutputCache', () => {
  it('tells a list read again the resourceVersions it returned, and holds their items', () => {
    const cache = new OutputCache();
    const first = read(cache, 'l', [['a', '1'], ['b', '2']]);
    expect(first.known).toEqual([]);
    const again = read(cache, 'l', [['a', '1'], ['b', '3']]);
    expect(again.known).toEqual(['1', '2']);
    expect(again.items[0]).toBe(first.items[0]);
    expect(again.items[1]).not.toBe(first.items[1]);
    expect(read(cache, 'l', []).known).toEqual(['1', '3']);
    expect(read(cache, 'other', []).known).toEqual([]);
  });

  it('answers readers at once of the same rows with one item', () => {
    const cache = new OutputCache();
    const first = cache.reading(KIND, 'l');
    const second = cache.reading(KIND, 'l');
    const a = first.kept({ namespace: 'ns', name: 'a' }, item('1'));
    expect(second.kept({ namespace: 'ns', name: 'a' }, item('1'))).toBe(a);
    expect(second.kept({ namespace: 'ns', name: 'b' }, item('1'))).not.toBe(a);
  });

  it('holds an item only for its own key', () => {
    const cache = new OutputCache();
    read(cache, 'l', [['a', '1']]);
    const reading = cache.reading(KIND, 'l');
    expect(reading.held(row('a', '1'))).toBeDefined();
    expect(reading.held(row('b', '1'))).toBeUndefined();
    expect(reading.held(row('a', '2'))).toBeUndefined();
  });

  it('keeps the items a read holds for it even when others push them out meanwhile', () => {
    const cache = new OutputCache(4 * ENTRY_CHARS);
    read(cache, 'l', [['a', '1']]);
    const reading = cache.reading(KIND, 'l');
    read(cache, 'other', [['b', '2'], ['c', '3'], ['d', '4'], ['e', '5']]);
    expect(reading.held(row('a', '1'))?.resourceVersion).toBe('1');
    expect(cache.reading(KIND, 'l').known).toEqual([]);
  });

  it('drops the least recently used items beyond its capacity', () => {
    const one = ENTRY_CHARS + item('1').metadata.length + item('1').rest.length;
    const cache = new OutputCache(3 * one);
    read(cache, 'l', [['a', '1'], ['b', '2'], ['c', '3']]);
    read(cache, 'm', [['a', '1']]);
    read(cache, 'n', [['d', '4']]);
    expect(cache.reading(KIND, 'l').known).toEqual(['1', '3']);
  });

  it('keeps dropping the least recently used as items come and are used', () => {
    const one = ENTRY_CHARS + item('1').metadata.length + item('1').rest.length;
    const cache = new OutputCache(3 * one);
    const key = (name: string) => ({ ...KIND, namespace: 'ns', name });
    for (let i = 1; i <= 20; i++) {
      cache.keep(key(`o${i}`), item(String(i)));
      if (i % 2 === 0) cache.keep(key('o1'), cache.newestOf(key('o1'))!);
    }
    const kept = Array.from({ length: 20 }, (_, i) => `o${i + 1}`).filter((name) => cache.newestOf(key(name)));
    expect(kept).toEqual(['o1', 'o19', 'o20']);
  });

  it("forgets everything when the database's history changes", () => {
    const cache = new OutputCache().of(1);
    read(cache, 'l', [['a', '1']]);
    expect(cache.of(1).reading(KIND, 'l').known).toEqual(['1']);
    expect(cache.newestOf({ ...KIND, namespace: 'ns', name: 'a' })?.resourceVersion).toBe('1');
    expect(cache.of(2).reading(KIND, 'l').known).toEqual([]);
    expect(cache.newestOf({ ...KIND, namespace: 'ns', name: 'a' })).toBeUndefined();
  });

  it('counts the texts written of a kept item with it', () => {
    const cache = new OutputCache(2 * (ENTRY_CHARS + 100));
    const a = cache.keep({ ...KIND, namespace: 'ns', name: 'a' }, item('1'));
    cache.keep({ ...KIND, namespace: 'ns', name: 'b' }, item('2'));
    expect(cache.newestOf({ ...KIND, namespace: 'ns', name: 'a' })).toBe(a);
    a.written!.set(KIND, 'form', 'x'.repeat(200));
    expect(a.written!.get(KIND, 'form')).toHaveLength(200);
    expect(cache.newestOf({ ...KIND, namespace: 'ns', name: 'a' })).toBeUndefined();
  });

  it("keeps the texts of an item's latest writers only", () => {
    const kept = new OutputCache().keep({ ...KIND, namespace: 'ns', name: 'a' }, item('1'));
    const writers = [{}, {}, {}, {}, {}];
    for (const writer of writers) kept.written!.set(writer, 'form', 'text');
    expect(kept.written!.get(writers[0], 'form')).toBeUndefined();
    expect(kept.written!.get(writers[4], 'form')).toBe('text');
  });

  it('answers a GET only with an item of its own key', () => {
    const cache = new OutputCache();
    cache.keep({ ...KIND, namespace: 'ns', name: 'a' }, item('5'));
    cache.keep({ ...KIND, namespace: 'ns', name: 'b' }, item('5'));
    expect(cache.newestOf({ ...KIND, namespace: 'ns', name: 'a' })).toBeUndefined();
    expect(cache.newestOf({ ...KIND, namespace: 'ns', name: 'b' })?.resourceVersion).toBe('5');
  });

  it('remembers the first pass of a list read twice', () => {
    const cache = new OutputCache();
    const reading = cache.reading(KIND, 'l');
    for (let pass = 0; pass < 2; pass++) {
      for (const [name, version] of [['a', '1'], ['b', '2']]) reading.kept({ namespace: 'ns', name }, reading.held(row(name, version)) ?? item(version));
      reading.done();
    }
    expect(cache.reading(KIND, 'l').known).toEqual(['1', '2']);
  });

  it('remembers no list longer than it keeps', () => {
    const cache = new OutputCache();
    const rows = Array.from({ length: LIST_ITEMS_REMEMBERED + 2 }, (_, i): [string, string] => [`o${i}`, String(i + 1)]);
    const items = read(cache, 'l', rows).items;
    expect(cache.reading(KIND, 'l').known).toEqual([]);
    expect(items[0].written).toBeDefined();
    expect(items[LIST_ITEMS_REMEMBERED + 1].written).toBeUndefined();
  });
});
