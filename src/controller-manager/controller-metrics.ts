import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { ServerMetrics } from '../metrics/server-metrics';

/** client-go's workqueue duration buckets (seconds): 10 ns to 10 s by factors of ten. */
const WORK_BUCKETS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10];

/** The controllers' metrics, by controller (`name`): client-go's names for the work queues and the leader election. */
@Injectable()
export class ControllerMetrics {
  readonly depth: Gauge<'name'>;
  readonly adds: Counter<'name'>;
  readonly retries: Counter<'name'>;
  readonly workDuration: Histogram<'name'>;
  readonly syncErrors: Counter<'name'>;
  readonly leader: Gauge<'name'>;

  constructor(metrics: ServerMetrics) {
    const registers = [metrics.registry];
    this.depth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'], registers });
    this.adds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers });
    this.retries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers });
    this.workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: ['name'],
      buckets: WORK_BUCKETS,
      registers,
    });
    this.syncErrors = new Counter({
      name: 'pgkube_controller_sync_errors_total',
      help: "Syncs of a controller's work-queue item that failed (and are retried with backoff).",
      labelNames: ['name'],
      registers,
    });
    this.leader = new Gauge({
      name: 'leader_election_master_status',
      help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease.',
      labelNames: ['name'],
      registers,
    });
  }
}
