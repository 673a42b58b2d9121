import { readPlannedList } from '../../src/registry/store/consistent-list';
import { apiErrors, StatusError } from '../../src/apimachinery/errors/status-error';

/** A read of the store that reports the newest committed version it saw, one value per call. */
function reads(...newest: bigint[]) {
  const discarded: bigint[] = [];
  let call = 0;
  const read = async () => ({ resourceVersion: '', newestVersion: newest[Math.min(call++, newest.length - 1)], compactedThrough: 0n });
  const discard = async (unused: { newestVersion: bigint }) => void discarded.push(unused.newestVersion);
  return { read, discard, discarded };
}

describe('readPlannedList', () => {
  it('asks whether a version is still kept only after waiting for the state to reach it', async () => {
    const asked: bigint[] = [];
    const stillKept = { refuseLost: () => undefined, refuseLostNow: async (version: bigint) => void asked.push(version) };
    const fresh = reads(12n);
    expect((await readPlannedList({ range: {}, minimum: 10n }, stillKept, fresh.read, fresh.discard)).newestVersion).toBe(12n);
    expect(asked).toEqual([]);

    const behind = reads(8n, 8n, 1_000_000_012n);
    expect((await readPlannedList({ range: {}, minimum: 10n }, stillKept, behind.read, behind.discard)).newestVersion).toBe(1_000_000_012n);
    expect(asked).toEqual([10n]);
    expect(behind.discarded).toEqual([8n, 8n]);
  });

  it('answers what the check throws, letting go of the read, when the state reached the version in a history without it', async () => {
    const behind = reads(8n, 1_000_000_012n);
    const lost = {
      refuseLost: () => undefined,
      refuseLostNow: async (version: bigint) => {
        throw apiErrors.expired(`resourceVersion ${version} is of a lost history`);
      },
    };
    const failure = await readPlannedList({ range: {}, minimum: 10n }, lost, behind.read, behind.discard).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StatusError);
    expect((failure as StatusError).code).toBe(410);
    expect(behind.discarded).toEqual([8n, 1_000_000_012n]);
  });
});
