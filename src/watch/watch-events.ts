/**
 * One event of a watch stream: the object is the full external object (a Status for ERROR; for BOOKMARK only the
 * kind, apiVersion and metadata.resourceVersion).
 */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'ERROR' | 'BOOKMARK';
  object: unknown;
}

/** Where a watch writes its events: one response stream, encoded in the negotiated media type. */
export interface EventSink {
  /** writes events (several in one write); false when the client is too far behind (the watch is then closed) */
  send(events: readonly WatchEvent[]): boolean;
  /** resolves once the client has taken most of what was written (at once when little waits), or has gone away */
  drained(): Promise<void>;
  end(): void;
}

/** A stream of events a handler answers with instead of a body (a watch). */
export interface EventStream {
  /** starts writing into the sink: the events gathered so far, then live ones */
  attach(sink: EventSink): void;
  /** the client went away */
  close(): void;
}
