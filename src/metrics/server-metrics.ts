import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const REQUEST_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

/** The apiserver's latency buckets (seconds). */
const LATENCY_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/**
 * This instance's metrics registry (one per app, not prom-client's global one) and the metrics that count events
 * as they happen. The apiserver's names where it has the metric, `pgkube_` for the rest. Values sampled at scrape
 * time are defined by StateGauges.
 */
@Injectable()
export class ServerMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, group, version, resource, scope, component, and HTTP response code.',
    labelNames: [...REQUEST_LABELS, 'code'],
    registers: [this.registry],
  });

  /** Requests that end when answered; a watch lasts as long as its client stays, and is in longRunningRequests. */
  readonly requestDuration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb, group, version, resource, subresource, scope and component (long-running requests such as watches are left out).',
    labelNames: REQUEST_LABELS,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly longRunningRequests = new Gauge({
    name: 'apiserver_longrunning_requests',
    help: 'Gauge of all active long-running apiserver requests (watches) broken out by verb, group, version, resource, scope and component.',
    labelNames: REQUEST_LABELS,
    registers: [this.registry],
  });

  readonly inflightRequests = new Gauge({
    name: 'apiserver_current_inflight_requests',
    help: 'Number of non-watch requests being served, by request kind (readOnly, mutating).',
    labelNames: ['request_kind'],
    registers: [this.registry],
  });

  readonly watchEvents = new Counter({
    name: 'apiserver_watch_events_total',
    help: 'Number of events sent in watch clients.',
    labelNames: ['group', 'version', 'kind'],
    registers: [this.registry],
  });

  readonly terminatedWatchers = new Counter({
    name: 'apiserver_terminated_watchers_total',
    help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
    labelNames: ['resource'],
    registers: [this.registry],
  });

  readonly changesRead = new Counter({
    name: 'pgkube_change_feed_changes_total',
    help: 'Changes this instance read from the change log and fanned out to its watchers, by resource.',
    labelNames: ['group', 'resource'],
    registers: [this.registry],
  });

  readonly compactions = new Counter({
    name: 'pgkube_change_log_compactions_total',
    help: 'Compaction runs of this instance: compacted (removed changes), idle (nothing to remove, or another instance was compacting), failed.',
    labelNames: ['result'],
    registers: [this.registry],
  });

  readonly compactedChanges = new Counter({
    name: 'pgkube_change_log_compacted_changes_total',
    help: 'Changes this instance removed from the change log.',
    registers: [this.registry],
  });

  readonly writeBatchSize = new Histogram({
    name: 'pgkube_storage_write_batch_size',
    help: 'Writes committed together in one transaction by this instance (group commit); a lone write is a batch of 1.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });

  readonly readBatchSize = new Histogram({
    name: 'pgkube_storage_read_batch_size',
    help: 'Reads of single objects by key that this instance sent together in one statement; a lone read is a batch of 1.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });

  readonly auditEvents = new Counter({
    name: 'apiserver_audit_event_total',
    help: 'Counter of audit events generated and sent to the audit backend.',
    registers: [this.registry],
  });

  readonly auditErrors = new Counter({
    name: 'apiserver_audit_error_total',
    help: 'Counter of audit events that failed to be audited properly (dropped: buffer full or write failed). Plugin identifies the plugin affected by the error.',
    labelNames: ['plugin'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
