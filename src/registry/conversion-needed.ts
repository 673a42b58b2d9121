/**
 * What a synchronous converter throws when it needs a call (a conversion webhook) first: the registry awaits `fetch`,
 * which keeps the answer where the converter finds it, and runs the step again.
 */
export class ConversionNeeded extends Error {
  constructor(readonly fetch: () => Promise<void>) {
    super('a conversion is needed first');
  }
}

/** Runs `step` until it needs no conversion it has not got yet. */
export async function withConversions<T>(step: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof ConversionNeeded)) throw error;
      await error.fetch();
    }
  }
}
