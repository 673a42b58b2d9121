import { ListKey, ObjectKey, StorageKey } from './object-key';
import { OutputItem } from './read-form';

/** Characters of items kept, their written texts counted with them (about twice the items' own): some 128 MB at most. */
export const OUTPUT_CACHE_CHARS = 64 * 1024 * 1024;

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

/**
 * One read of a list through the cache: the resourceVersions it tells the statement it holds, each row read without
 * its texts answered from what it holds, and every item of the read kept (and the read's resourceVersions remembered
 * for the list's next read once it is done).
 */
export interface CachedListRead {
  readonly known: readonly string[];
  /** the item held for a row read without its texts; undefined if it is not one of `known` (never, but checked) */
  held(row: ListKey & { resource_version: string }): OutputItem | undefined;
  /** the item as the cache keeps it (a copy that keeps its written texts), to be answered in its place */
  kept(key: ListKey, item: OutputItem): OutputItem;
  done(): void;
}

/**
 * Items read for output kept by resourceVersion, least recently used dropped first, so that an object or a list read
 * again (a controller's relist, a page a client reads again, a watch's initial events, a GET) has PostgreSQL write
 * only what changed and the server parse and write only that. A resourceVersion names one state of one object for
 * good: the triggers give every change of a row a new one, from one sequence whose values no failover hands out twice
 * (DatabaseHistory), so an item kept under it never goes stale (see `of` for the exception). A read tells its statement the resourceVersions whose
 * items it holds (see outputColumns): a GET, its key's newest one kept; a list, those it returned last time that are
 * still kept (at most one page's, or LIST_ITEMS_REMEMBERED).
 */
export class OutputCache {
  private readonly items = new Map<string, Kept>();
  /** the resourceVersion of each key's newest item kept */
  private readonly newest = new Map<string, string>();
  /** the resourceVersions each list returned last, least recently read first */
  private readonly lists = new Map<string, string[]>();
  private listVersions = 0;
  private chars = 0;
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
    return version === undefined ? undefined : this.items.get(version)?.item;
  }

  /** The item as the cache keeps it, to be answered in its place (see CachedListRead.kept). */
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
    return {
      known: [...held.keys()],
      held: (row) => {
        const kept = held.get(row.resource_version);
        // a kept item is a state of the row's own key (its resourceVersion was drawn for it): checked nonetheless
        return kept && isOf(kept, kind, row) ? kept.item : undefined;
      },
      kept: (key, item) => {
        if (returned.length > LIST_ITEMS_REMEMBERED) return item;
        returned.push(item.resourceVersion);
        return this.keepUnder(kind, key, item);
      },
      done: () => this.remember(list, returned.length > LIST_ITEMS_REMEMBERED ? undefined : returned),
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

  /**
   * Keeps `item` and answers the item kept in its place: the one kept already under its resourceVersion, marked as
   * just used (readers at once of the same rows share one item, and what is written of it), or a copy that keeps its
   * written texts. The least recently used are dropped beyond capacity.
   */
  private keepUnder(kind: StorageKey, key: ListKey, item: OutputItem): OutputItem {
    const version = item.resourceVersion;
    const before = this.items.get(version);
    if (before) {
      this.items.delete(version);
      if (isOf(before, kind, key)) {
        this.items.set(version, before);
        return before.item;
      }
      this.chars -= before.chars;
    }
    const kept: Kept = { group: kind.group, resource: kind.resource, namespace: key.namespace, name: key.name, item: { ...item, written: new Map() }, chars: 2 * textLength(item) };
    this.items.set(version, kept);
    this.chars += kept.chars;
    const name = keyName(kept);
    const newest = this.newest.get(name);
    if (newest === undefined || isLater(version, newest)) this.newest.set(name, version);
    for (const [oldest, dropped] of this.items) {
      if (this.chars <= this.capacity) break;
      this.items.delete(oldest);
      this.chars -= dropped.chars;
      if (this.newest.get(keyName(dropped)) === oldest) this.newest.delete(keyName(dropped));
    }
    return kept.item;
  }
}

const textLength = (item: OutputItem) => item.metadata.length + item.rest.length + (item.managedFields?.length ?? 0);
