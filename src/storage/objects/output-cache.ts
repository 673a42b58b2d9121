import { ListKey, ObjectKey, StorageKey } from './object-key';
import { OutputItem, WrittenTexts } from './read-form';

/** Characters kept, items and the texts written of them together (two bytes a character at most): 128 MB at most. */
export const OUTPUT_CACHE_CHARS = 64 * 1024 * 1024;

/** What keeping one item costs besides its texts (its records, maps and key strings), counted in characters. */
export const ENTRY_CHARS = 300;

/** Lists whose resourceVersions are remembered (see OutputCache.reading). */
const LISTS_REMEMBERED = 1024;

/** The most items of one list remembered: a longer list (a whole kind, unpaged) is read as if never read before. */
export const LIST_ITEMS_REMEMBERED = 5000;

/** The most resourceVersions remembered for all lists together (some 10 MB): the oldest lists are forgotten first. */
const LIST_VERSIONS_REMEMBERED = 200_000;

interface Kept extends ObjectKey {
  item: OutputItem;
  chars: number;
}

/** Whether an item kept is one of the object of this key (compared part by part: no string is built per row). */
const isOf = (kept: Kept, kind: StorageKey, key: ListKey) =>
  kept.name === key.name && kept.namespace === key.namespace && kept.resource === kind.resource && kept.group === kind.group;

/** A key as one string: its parts joined with NUL, which no stored name or namespace holds. */
const keyName = (key: ObjectKey) => `${key.group}\0${key.resource}\0${key.namespace}\0${key.name}`;

/** Which of two resourceVersions (decimal, without leading zeros) is the later. */
const isLater = (version: string, than: string) => version.length > than.length || (version.length === than.length && version > than);

const textLength = (item: OutputItem) => item.metadata.length + item.rest.length + (item.managedFields?.length ?? 0);

/**
 * One read of a list through the cache: the resourceVersions it tells the statement it holds, each row read without
 * its texts answered from what it holds, and every item of the read kept (and the read's resourceVersions remembered
 * for the list's next read once it is done: its first pass, for a list read twice).
 */
export interface CachedListRead {
  readonly known: readonly string[];
  /**
   * the item held for a row read without its texts; undefined if it is not one of `known`, or one of another key
   * under the same resourceVersion (a state rebuilt at a past version can carry a version shared by several keys:
   * see the change log's previous versions)
   */
  held(row: ListKey & { resource_version: string }): OutputItem | undefined;
  /** the item as the cache keeps it (see OutputCache.keep), to be answered in its place */
  kept(key: ListKey, item: OutputItem): OutputItem;
  done(): void;
}

/**
 * Items read for output kept by resourceVersion, least recently used dropped first, so that an object or a list read
 * again (a controller's relist, a page a client reads again, a watch's initial events, a GET) has PostgreSQL write
 * only what changed and the server parse and write only that. A resourceVersion names one state of one object for
 * good: the triggers give every change of a row a new one, from one sequence whose values no failover hands out
 * twice (DatabaseHistory), so an item kept under it never goes stale (see `of` for the exception). A read tells its
 * statement the resourceVersions whose items it holds (see outputColumns): a GET, its key's newest one kept; a list,
 * those it returned last time that are still kept (at most one page's, or LIST_ITEMS_REMEMBERED).
 */
export class OutputCache {
  private readonly items = new Map<string, Kept>();
  /** the resourceVersion of each key's newest item kept */
  private readonly newest = new Map<string, string>();
  /** the resourceVersions each list returned last, least recently read first */
  private readonly lists = new Map<string, string[]>();
  private listVersions = 0;
  private chars = 0;
  /**
   * where dropping goes on from: a JS Map iterated from its start again after each drop walks every slot that an
   * earlier drop or use emptied (tens of microseconds per drop at 50,000 items), one iterator walks each slot once
   */
  private dropping?: Iterator<[string, Kept]>;
  /** the history of the database the items were read in (DatabaseHistory's epoch) */
  private epoch = 0;

  constructor(private readonly capacity = OUTPUT_CACHE_CHARS) {}

  /**
   * The cache for reads in the database's history `epoch`: emptied when the history changed, since a failover that
   * lost changes may, in the one case DatabaseHistory describes, hand a lost change's resourceVersion out again.
   */
  of(epoch: number): this {
    if (epoch !== this.epoch) {
      this.items.clear();
      this.dropping = undefined;
      this.newest.clear();
      this.lists.clear();
      this.listVersions = 0;
      this.chars = 0;
      this.epoch = epoch;
    }
    return this;
  }

  /** The newest item kept of a key, whose resourceVersion a GET tells its statement. */
  newestOf(key: ObjectKey): OutputItem | undefined {
    const version = this.newest.get(keyName(key));
    const kept = version === undefined ? undefined : this.items.get(version);
    return kept && isOf(kept, key, key) ? kept.item : undefined;
  }

  /**
   * Keeps `item` and answers the item kept in its place: the one kept already under its resourceVersion for the same
   * key, marked as just used (readers at once of the same rows share one item, and what is written of it), or a copy
   * that keeps the texts written of it. The least recently used are dropped beyond capacity.
   */
  keep(key: ObjectKey, item: OutputItem): OutputItem {
    return this.keepUnder(key, key, item);
  }

  /** A read of the list `list` names (its kind and query, written out) of the kind `kind` stores. */
  reading(kind: StorageKey, list: string): CachedListRead {
    const held = new Map<string, Kept>();
    for (const version of this.lists.get(list) ?? []) {
      const kept = this.items.get(version);
      if (kept) held.set(version, kept);
    }
    const returned: string[] = [];
    let tooLong = false;
    let finished = false;
    return {
      known: [...held.keys()],
      held: (row) => {
        const kept = held.get(row.resource_version);
        return kept && isOf(kept, kind, row) ? kept.item : undefined;
      },
      kept: (key, item) => {
        if (finished || tooLong) return item;
        if (returned.length === LIST_ITEMS_REMEMBERED) {
          tooLong = true;
          return item;
        }
        returned.push(item.resourceVersion);
        return this.keepUnder(kind, key, item);
      },
      done: () => {
        if (finished) return;
        finished = true;
        this.remember(list, tooLong ? undefined : returned);
      },
    };
  }

  /** What a list returned (none: forget it), the least recently read lists forgotten beyond what is remembered. */
  private remember(list: string, versions: string[] | undefined): void {
    this.listVersions -= this.lists.get(list)?.length ?? 0;
    this.lists.delete(list);
    if (versions) {
      this.lists.set(list, versions);
      this.listVersions += versions.length;
    }
    for (const [oldest, forgotten] of this.lists) {
      if (this.lists.size <= LISTS_REMEMBERED && this.listVersions <= LIST_VERSIONS_REMEMBERED) break;
      this.lists.delete(oldest);
      this.listVersions -= forgotten.length;
    }
  }

  private keepUnder(kind: StorageKey, key: ListKey, item: OutputItem): OutputItem {
    const version = item.resourceVersion;
    const before = this.items.get(version);
    if (before) {
      this.items.delete(version);
      if (isOf(before, kind, key)) {
        this.items.set(version, before);
        return before.item;
      }
      this.forget(version, before);
    }
    const kept: Kept = { group: kind.group, resource: kind.resource, namespace: key.namespace, name: key.name, item, chars: ENTRY_CHARS + textLength(item) };
    kept.item = { ...item, written: new WrittenTexts((chars) => this.grew(version, kept, chars)) };
    this.items.set(version, kept);
    this.chars += kept.chars;
    const name = keyName(kept);
    const newest = this.newest.get(name);
    if (newest === undefined || isLater(version, newest)) this.newest.set(name, version);
    this.dropBeyondCapacity();
    return kept.item;
  }

  /** A text written of a kept item counts with it (one no longer kept counts for nothing). */
  private grew(version: string, kept: Kept, chars: number): void {
    if (this.items.get(version) !== kept) return;
    kept.chars += chars;
    this.chars += chars;
    this.dropBeyondCapacity();
  }

  /** Drops the least recently used items (the Map's order: an item used is set again, at its end) beyond capacity. */
  private dropBeyondCapacity(): void {
    while (this.chars > this.capacity) {
      let next = this.dropping?.next();
      if (!next || next.done) {
        this.dropping = this.items.entries();
        next = this.dropping.next();
        if (next.done) return;
      }
      const [oldest, dropped] = next.value;
      this.items.delete(oldest);
      this.forget(oldest, dropped);
    }
  }

  /** Takes a dropped item out of the count, and out of its key's newest if it was that. */
  private forget(version: string, dropped: Kept): void {
    this.chars -= dropped.chars;
    const name = keyName(dropped);
    if (this.newest.get(name) === version) this.newest.delete(name);
  }
}
