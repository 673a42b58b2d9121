import { BOOKMARK_INTERVAL_MS, nextBookmarkAt } from '../../src/watch/bookmarks';

describe('nextBookmarkAt', () => {
  it('is a minute after the previous one, then just before the deadline, then never', () => {
    const deadline = 150_000;
    expect(nextBookmarkAt(0, deadline)).toBe(BOOKMARK_INTERVAL_MS);
    expect(nextBookmarkAt(60_000, deadline)).toBe(120_000);
    expect(nextBookmarkAt(120_000, deadline)).toBe(148_000);
    expect(nextBookmarkAt(148_000, deadline)).toBeUndefined();
  });

  it('sends none for a watch shorter than the lead before its deadline', () => {
    expect(nextBookmarkAt(0, 1_000)).toBeUndefined();
  });
});
