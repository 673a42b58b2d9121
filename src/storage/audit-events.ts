import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from './database/database.tokens';

const DAY_MS = 24 * 3600 * 1000;
const DUPLICATE_CODES = new Set(['42P07', '23505']);

const day = (iso: string) => Math.floor(Date.parse(iso) / DAY_MS) * DAY_MS;

/**
 * Writes audit events into `audit_events` (one statement a batch), creating the partition of each new day (UTC)
 * first; instances that create the same one at once tolerate each other.
 */
@Injectable()
export class AuditEventStore {
  private readonly partitions = new Set<number>();

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Inserts events, each already serialized as JSON. */
  async write(events: readonly { json: string; stageTimestamp: string }[]): Promise<void> {
    for (const start of new Set(events.map((e) => day(e.stageTimestamp)))) await this.ensurePartition(start);
    await this.pool.query(
      `INSERT INTO audit_events (stage_at, event)
       SELECT (e ->> 'stageTimestamp')::timestamptz, e FROM jsonb_array_elements($1::jsonb) e`,
      [`[${events.map((e) => e.json).join(',')}]`],
    );
  }

  private async ensurePartition(start: number): Promise<void> {
    if (this.partitions.has(start)) return;
    const from = new Date(start).toISOString();
    const name = `audit_events_${from.slice(0, 10).replace(/-/g, '')}`;
    try {
      await this.pool.query(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF audit_events FOR VALUES FROM ('${from}') TO ('${new Date(start + DAY_MS).toISOString()}')`,
      );
    } catch (error) {
      if (!DUPLICATE_CODES.has((error as { code?: string }).code ?? '')) throw error;
    }
    this.partitions.add(start);
  }
}
