import { EventSink, EventStream, WatchEvent } from './watch-events';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { objectJson, toOutput } from '../registry/object-output';
import { EncodedJson } from '../apiserver/codec/response-encoder';
import { groupVersion, KindDefinition, storageKeyOf, wireOf } from '../registry/kind-definition';
import { LIST_BATCH_ROWS, ListCursor } from '../storage/objects/list-cursor';
import { ListOptions } from '../registry/store/list-options';
import { matchesListOptions } from '../registry/store/list-matching';
import { Change, resourceKey } from '../storage/changes/change';
import { FeedSubscriber } from './change-feed.service';
import { bookmarkEvent, nextBookmarkAt } from './bookmarks';
import { convertsByCall } from '../registry/store/served-version';
import { apiErrors, StatusError } from '../apimachinery/errors/status-error';

/** A watch's 410: the version asked for, or one the watch sent, is not in the history any more. */
export function gone(def: KindDefinition, message: string): object {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: wireOf(def).tooOldWatchReason, code: 410 };
}

/**
 * Initial events are written in pieces of about this many characters (or one event, if larger), each once the client
 * has taken the one before: what waits unsent stays far below MAX_UNSENT_BYTES.
 */
const INITIAL_EVENTS_PIECE_CHARS = 256 * 1024;

/** Texts in runs in order, each run as long as `chars` or just past it (a text longer than that alone). */
function inPieces(texts: string[], chars: number): string[][] {
  const pieces: string[][] = [];
  let piece: string[] = [];
  let length = 0;
  for (const text of texts) {
    piece.push(text);
    length += text.length;
    if (length >= chars) {
      pieces.push(piece);
      piece = [];
      length = 0;
    }
  }
  if (piece.length > 0) pieces.push(piece);
  return pieces;
}

/** Changes held while a session starts; more than this and the session gives up (the client retries). */
const MAX_STARTUP_BUFFER = 100_000;
/** Events produced before the response is attached. */
const MAX_UNATTACHED = 100_000;

type Variant = 'new' | 'old';

const statusOf = (error: unknown) => (error instanceof StatusError ? error : apiErrors.internal(String(error))).toStatus();

/**
 * What a session tells its owner: each event written, and its end (`unresponsive` when the client fell behind); and
 * what it asks: the change feed's position, which every live session has seen all changes up to.
 */
export interface SessionHooks {
  sent(session: WatchSession, events: number): void;
  closed(session: WatchSession, unresponsive: boolean): void;
  position(): bigint;
}

/** An event, or one being made by a call that converts its object (see StorageConversion). */
type Pending = WatchEvent | Promise<WatchEvent>;

/** Watch events built once per change and shared by every session that sends the same one. */
const sharedEvents = new WeakMap<Change, Map<string, Pending>>();

/** The event of an object in the version the row serves, converted by a call for a row whose objects need one. */
function convertedEvent(def: KindDefinition, type: WatchEvent['type'], object: KubeObject): Pending {
  if (!convertsByCall(def)) return { type, object: toOutput(def, object, { withTypeMeta: true }) };
  const event = def.storageConversion.fromStored([object]).then(([served]) => ({ type, object: toOutput(def, served, { withTypeMeta: true }) }));
  event.catch(() => undefined); // each session that sends it handles a failure
  return event;
}

function eventFor(def: KindDefinition, change: Change, type: WatchEvent['type'], variant: Variant): Pending {
  let events = sharedEvents.get(change);
  if (!events) sharedEvents.set(change, (events = new Map()));
  const key = `${groupVersion(def)}/${type}/${variant}`; // versions served from the same storage each have theirs
  let event = events.get(key);
  if (!event) {
    const state = variant === 'new' ? change.object : (change.previous as KubeObject);
    // Every event carries the resourceVersion of its change, DELETED ones included, as apiservers after 1.7 stamp them.
    const stamped = { ...state, metadata: { ...state.metadata, resourceVersion: change.resourceVersion.toString() } };
    event = convertedEvent(def, type, stamped);
    events.set(key, event);
  }
  return event;
}

/**
 * One watch: it subscribes to the change feed, is started from a snapshot or from history by the WatchService,
 * then turns each change of its resource into the event its selectors call for, as the apiserver's watch cache does.
 */
export class WatchSession implements FeedSubscriber, EventStream {
  readonly key: string;
  /** changes received while starting; undefined once live */
  private startupBuffer: Change[] | undefined = [];
  private cursor = 0n;
  private sink?: EventSink;
  private unattached: WatchEvent[] = [];
  private endAfterFlush = false;
  private timer?: NodeJS.Timeout;
  private bookmarkTimer?: NodeJS.Timeout;
  private closed = false;
  /** the state to send as initial events once the response is attached */
  private initial?: { cursor: ListCursor; initialEventsEnd: boolean };
  /** wakes the sending of initial events that waits for the client, when the session closes */
  private wake: () => void = () => undefined;
  /** the events being converted by a call, sent in order once each is made; unset while none ever was */
  private converting?: Promise<void>;
  /** how many events wait for their conversion or for those before them: held as the unattached ones are */
  private waiting = 0;

  constructor(
    readonly def: KindDefinition,
    private readonly namespace: string | undefined,
    private readonly options: ListOptions,
    private readonly hooks: SessionHooks,
  ) {
    const stored = storageKeyOf(def);
    this.key = resourceKey(stored.group, stored.resource);
  }

  /**
   * Sends the state the cursor reads as ADDED events (for a watch-list, then the bookmark that ends them) once the
   * response is attached; the session then follows changes after the state's resourceVersion.
   */
  startFromSnapshot(cursor: ListCursor, initialEventsEnd = false): void {
    this.initial = { cursor, initialEventsEnd };
  }

  /** Replays history (changes after the start version), then follows changes after `through`. */
  startFromHistory(history: Change[], through: bigint): void {
    for (const change of history) this.apply(change);
    this.goLive(through > this.cursor ? through : this.cursor);
  }

  following(): bigint {
    return this.cursor;
  }

  /**
   * A change this watch should send cannot be (compacted away before the feed read it), or the database's history
   * went back past changes it may have sent (see ChangeFeed): it ends with 410, and the client lists again.
   */
  missed(resourceVersion: bigint): void {
    this.fail(gone(this.def, `too old resource version: the change at ${resourceVersion} is no longer in the history`));
  }

  /** Sends one ERROR event and ends the stream (e.g. 410 for a version older than the retained history). */
  fail(status: object): void {
    this.inOrder(() => this.end(status));
  }

  private end(status: object): void {
    this.send({ type: 'ERROR', object: status });
    this.endAfterFlush = true;
    this.startupBuffer = undefined;
    if (this.sink) this.close();
  }

  /** Ends the stream after `seconds` (a negative value: at once), with bookmarks until then if the client allows them. */
  endAfter(seconds: number): void {
    const deadline = Date.now() + Math.max(0, seconds) * 1000;
    this.timer = setTimeout(() => this.close(), deadline - Date.now());
    this.timer.unref();
    if (this.options.allowWatchBookmarks) this.scheduleBookmark(Date.now(), deadline);
  }

  /** A bookmark about once a minute and just before the deadline, at the newest version the session has seen to. */
  private scheduleBookmark(previous: number, deadline: number): void {
    const at = nextBookmarkAt(previous, deadline);
    if (at === undefined) return;
    this.bookmarkTimer = setTimeout(() => {
      if (this.closed) return;
      if (!this.startupBuffer && !this.endAfterFlush) {
        const position = this.hooks.position();
        this.emit(bookmarkEvent(this.def, position > this.cursor ? position : this.cursor));
      }
      this.scheduleBookmark(at, deadline);
    }, at - Date.now());
    this.bookmarkTimer.unref();
  }

  deliver(change: Change): void {
    if (this.closed || this.endAfterFlush) return;
    if (this.startupBuffer) {
      this.startupBuffer.push(change);
      if (this.startupBuffer.length > MAX_STARTUP_BUFFER) this.close(true);
      return;
    }
    this.apply(change);
  }

  attach(sink: EventSink): void {
    this.sink = sink;
    if (this.closed) {
      sink.end();
      return;
    }
    const gathered = this.unattached;
    this.unattached = [];
    if (gathered.length > 0 && !this.write(gathered)) return;
    if (this.endAfterFlush) this.close();
    else if (this.initial) void this.sendInitialEvents(this.initial);
  }

  /** Ends the stream; `unresponsive` when the client is dropped for falling behind. */
  close(unresponsive = false): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.bookmarkTimer);
    // initial events not begun (no response attached yet) let go of their cursor here, begun ones when they stop
    if (this.initial) void this.initial.cursor.close();
    this.wake();
    this.hooks.closed(this, unresponsive);
    this.sink?.end();
  }

  /**
   * Sends the initial events a batch of rows at a time, written in pieces (INITIAL_EVENTS_PIECE_CHARS), each once the
   * client has taken the one before (backpressure), so the server holds about a batch of the state rather than all of
   * it; changes that come meanwhile wait in the startup buffer. Then goes live after the state's resourceVersion. A
   * read that fails ends the watch (the client watches again).
   */
  private async sendInitialEvents({ cursor, initialEventsEnd }: { cursor: ListCursor; initialEventsEnd: boolean }): Promise<void> {
    this.initial = undefined;
    const sink = this.sink as EventSink;
    // a wait of its own each time: reactions added to one promise that lives as long as the session would pile up
    const drained = () =>
      new Promise<void>((resolve) => {
        this.wake = resolve;
        void sink.drained().then(resolve);
      });
    let failure: unknown;
    try {
      for await (const rows of cursor.batches(LIST_BATCH_ROWS)) {
        // the objects' texts, as a list's items are written (not parsed and written again: protobuf parses them)
        const texts = rows.map((row) => objectJson(this.def, row, { withTypeMeta: true }));
        for (const piece of inPieces(texts, INITIAL_EVENTS_PIECE_CHARS)) {
          if (this.closed) return;
          this.emitAll(piece.map((text): WatchEvent => ({ type: 'ADDED', object: new EncodedJson(() => text) })));
          await drained();
        }
      }
    } catch (error) {
      // a conversion that failed is told (the read of the rows worked, and its connection is returned as sound); other
      // failures just end the watch
      if (convertsByCall(this.def) && error instanceof StatusError) return this.end(error.toStatus());
      failure = error;
      this.close();
      return;
    } finally {
      await cursor.close(failure);
    }
    if (this.closed) return;
    const resourceVersion = BigInt(cursor.resourceVersion);
    if (initialEventsEnd) this.emit(bookmarkEvent(this.def, resourceVersion, true));
    this.goLive(resourceVersion);
  }

  private goLive(cursor: bigint): void {
    this.cursor = cursor;
    const buffered = this.startupBuffer ?? [];
    this.startupBuffer = undefined;
    for (const change of buffered) this.apply(change);
  }

  private apply(change: Change): void {
    if (change.resourceVersion <= this.cursor) return;
    this.cursor = change.resourceVersion;
    if (this.namespace !== undefined && change.namespace !== this.namespace) return;
    if (change.unreadable) return this.fail(change.unreadable.toStatus());
    const matches = (object: KubeObject | undefined) => !!object && matchesListOptions(this.def, this.options, object);
    const nowMatches = change.type !== 'DELETED' && matches(change.object);
    switch (change.type) {
      case 'ADDED':
        if (nowMatches) this.emit(eventFor(this.def, change, 'ADDED', 'new'));
        return;
      case 'MODIFIED': {
        const matched = matches(change.previous);
        if (matched && nowMatches) this.emit(eventFor(this.def, change, 'MODIFIED', 'new'));
        else if (nowMatches) this.emit(eventFor(this.def, change, 'ADDED', 'new'));
        else if (matched) this.emit(eventFor(this.def, change, 'DELETED', 'old'));
        return;
      }
      case 'DELETED':
        if (matches(change.object)) this.emit(eventFor(this.def, change, 'DELETED', 'new'));
    }
  }

  /** Sends the event after those being converted; one whose conversion fails ends the watch with its Status. */
  private emit(event: Pending): void {
    if (!(event instanceof Promise) && !this.converting) return this.send(event);
    if (++this.waiting > MAX_UNATTACHED) return this.close(true);
    const made = (this.converting ?? Promise.resolve()).then(() => event);
    this.converting = made
      .then(
        (ready) => {
          this.waiting -= 1;
          if (!this.endAfterFlush) this.send(ready);
        },
        (error: unknown) => {
          if (!this.endAfterFlush) this.end(statusOf(error));
        },
      )
      .catch((error: unknown) => this.abandon(error));
  }

  /** Runs `step` once the events being converted are sent. */
  private inOrder(step: () => void): void {
    if (this.converting) this.converting = this.converting.then(step).catch((error: unknown) => this.abandon(error));
    else step();
  }

  /** Ends a watch whose event could not be written (one too deeply nested to encode, say) with the cause, if it can. */
  private abandon(error: unknown): void {
    try {
      if (!this.endAfterFlush) return this.end(statusOf(error));
    } catch {
      // the Status cannot be written either
    }
    this.close();
  }

  /** Emits events in order, written together when none waits for a conversion (a batch of initial events). */
  private emitAll(events: WatchEvent[]): void {
    if (this.converting) for (const event of events) this.emit(event);
    else this.send(...events);
  }

  private send(...events: WatchEvent[]): void {
    if (this.sink) {
      this.write(events);
    } else {
      this.unattached.push(...events);
      if (this.unattached.length > MAX_UNATTACHED) this.close(true);
    }
  }

  /** Writes to the response; a client too far behind is disconnected. */
  private write(events: WatchEvent[]): boolean {
    if (this.closed) return false;
    const keptUp = (this.sink as EventSink).send(events);
    this.hooks.sent(this, events.length);
    if (keptUp) return true;
    this.close(true);
    return false;
  }
}
