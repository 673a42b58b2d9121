import { setTimeout as sleep } from 'node:timers/promises';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { Continuation, decodeContinue, encodeContinue } from './continue-token';
import { ListOptions } from './list-options';
import { EXACT } from './list-options-validation';
import { ListRange } from '../../storage/objects/list-query';
import { ListResult, ListSnapshot } from '../../storage/objects/list-result';

/** How long a list asking for a resourceVersion newer than the newest committed one waits before a 504. */
const FRESHNESS_WAIT_MS = 3000;
const FRESHNESS_POLL_MS = 100;

/** A continue token's version for "the newest state", which a 410 hands out to go on inconsistently. */
const NEWEST = -1n;
/** The key before every key: a paged list cut short by a 410 before its first page goes on from the start. */
const START = { namespace: '', name: '' };

const TOO_OLD = 'The resourceVersion for the provided list is too old.';
const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without ' +
  'the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
  'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or ' +
  'deleted between the time the first chunk was returned and now may show up in the list.';

/** A list request as the store reads it: the range, and for NotOlderThan the version the state must have reached. */
export interface ListPlan {
  range: ListRange;
  minimum?: bigint;
}

/**
 * The apiserver's reading of resourceVersion, resourceVersionMatch, limit and continue: unset is the newest state,
 * `0` any state (a streaming standby's, perhaps behind: upstream's watch cache is too); NotOlderThan N (and N without a match or a limit, the legacy rule) is the newest once it reaches N; Exact N
 * (and N with a limit, the legacy rule) is the state at N; a continue token is the state at its version from its key.
 */
export function planList(options: ListOptions): ListPlan {
  const page: ListRange = { limit: options.limit };
  if (options.continue !== undefined) {
    if (options.resourceVersion !== undefined && options.resourceVersion !== '0') {
      throw apiErrors.badRequest('specifying resource version is not allowed when using continue');
    }
    const { resourceVersion, after } = decodeContinue(options.continue);
    return { range: { ...page, after, at: resourceVersion === NEWEST ? undefined : resourceVersion } };
  }
  const requested = options.resourceVersion;
  if (requested === undefined) return { range: page };
  if (requested === '0') return { range: { ...page, mayBeStale: true } };
  const match = options.resourceVersionMatch;
  const exact = match === EXACT || (match === undefined && options.limit !== undefined);
  return exact ? { range: { ...page, at: BigInt(requested) } } : { range: page, minimum: BigInt(requested) };
}

/** A state before the compaction horizon cannot be rebuilt: 410 Expired, with a token to go on when paging. */
function checkRetained(range: ListRange, compactedThrough: bigint): void {
  if (range.at === undefined || range.at >= compactedThrough) return;
  if (range.limit === undefined) throw apiErrors.expired(TOO_OLD);
  throw apiErrors.expired(INCONSISTENT_CONTINUE, encodeContinue({ resourceVersion: NEWEST, after: range.after ?? START }));
}

/**
 * What a list asks of the database's history (DatabaseHistory): whether a version it names was handed out by a
 * history the database no longer has (a failover to a standby that lacked it), which is answered 410.
 */
export interface LostVersions {
  /** throws for a version of a lost history this instance knows of */
  refuseLost(version: bigint | undefined): void;
  /** the same, once the database's history is checked anew */
  refuseLostNow(version: bigint): Promise<void>;
}

/**
 * Reads a planned list, waiting (up to 3 s, then 504) for a resourceVersion newer than the newest committed one.
 * `discard` lets go of a read that is not answered (too old, or not yet fresh enough), such as an open cursor.
 * A version of a lost history is refused before the read, and asked about again once a wait ended: the newer state
 * may be of a history that went back past it, which this instance may have learnt of only meanwhile.
 */
export async function readPlannedList<Read extends ListSnapshot>(
  plan: ListPlan,
  lost: LostVersions,
  read: (range: ListRange) => Promise<Read>,
  discard: (unused: Read) => Promise<void> = async () => undefined,
): Promise<Read> {
  lost.refuseLost(plan.minimum);
  const wanted = plan.range.at ?? plan.minimum;
  const deadline = Date.now() + FRESHNESS_WAIT_MS;
  for (let waited = false; ; waited = true) {
    const result = await read(plan.range);
    try {
      if (wanted === undefined || result.newestVersion >= wanted) {
        checkRetained(plan.range, result.compactedThrough);
        if (waited && wanted !== undefined) await lost.refuseLostNow(wanted);
        return result;
      }
      if (Date.now() >= deadline) throw apiErrors.tooLargeResourceVersion(wanted.toString(), result.newestVersion.toString());
    } catch (error) {
      await discard(result);
      throw error;
    }
    await discard(result);
    await sleep(FRESHNESS_POLL_MS);
  }
}

/**
 * The continue token of a page that others follow. No remainingItemCount: counting the rest is a scan of every
 * remaining object (over a second for 100,000), and the field is optional; the apiserver too leaves it out when it
 * does not know it cheaply.
 */
export function listContinuation(result: ListResult<unknown>): { continue?: string } {
  if (!result.continueAfter) return {};
  const next: Continuation = { resourceVersion: BigInt(result.resourceVersion), after: result.continueAfter };
  return { continue: encodeContinue(next) };
}
