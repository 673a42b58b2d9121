import { WatchStream } from '../../test/support/watch-stream';

/** Called for each event with its type, the resourceVersion of its object, and performance.now() at arrival. */
export type EventListener = (type: string, resourceVersion: number, at: number) => void;

const TYPE = /^\{"type":"(\w+)"/;
const VERSION = /"resourceVersion":"(\d+)"/;

/**
 * A JSON watch read as cheaply as a harness holding a thousand of them must, on a connection of its own: each line is
 * scanned for its type and the first resourceVersion (the object's: the server writes metadata before the rest),
 * never parsed. Fails unless the server answers 200.
 */
export async function openScannedWatch(url: string, onEvent: EventListener): Promise<WatchStream> {
  const stream = await WatchStream.open(url, { agent: false }, (line, at) => {
    const text = line as string; // JSON: a line of text
    onEvent(TYPE.exec(text)?.[1] ?? '?', Number(VERSION.exec(text)?.[1] ?? 0), at);
  });
  if (stream.status !== 200) {
    stream.close();
    throw new Error(`watch ${url}: ${stream.status}`);
  }
  return stream;
}
