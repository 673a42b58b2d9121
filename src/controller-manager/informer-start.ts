import { Logger } from '@nestjs/common';
import { SharedInformer } from '../watch/informer';

/** Between a controller's failed first read of its informer's objects and the next try. */
const INFORMER_RETRY_MS = 1000;

/**
 * Starts a controller's informer, again a moment after each failed first read, until it is current; resolves false
 * when `signal` aborted first (the controller no longer leads).
 */
export async function startInformer(informer: SharedInformer, signal: AbortSignal, logger: Logger): Promise<boolean> {
  while (!signal.aborted) {
    try {
      await informer.start();
      return true;
    } catch (error) {
      logger.error(`reading the ${informer.resource.resource} failed: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, INFORMER_RETRY_MS).unref());
    }
  }
  return false;
}
