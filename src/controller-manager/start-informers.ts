import { Logger } from '@nestjs/common';
import { SharedInformer } from '../watch/informer';

/** Between a failed first read of a controller's informers and the next. */
const INFORMER_RETRY_MS = 1000;

/**
 * Starts a controller's informers, trying again a moment after a failed first read, until they are current or the
 * controller stops leading (`signal`); resolves whether they started.
 */
export async function startInformers(informers: SharedInformer[], signal: AbortSignal, logger: Logger): Promise<boolean> {
  while (!signal.aborted) {
    try {
      await Promise.all(informers.map((informer) => informer.start()));
      return true;
    } catch (error) {
      logger.error(`reading ${informers.map((informer) => informer.resource.resource).join(' and ')} failed: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, INFORMER_RETRY_MS).unref());
    }
  }
  return false;
}
