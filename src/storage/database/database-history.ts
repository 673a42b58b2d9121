import { Inject, Injectable, Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from './database.tokens';
import { checkOut, giveBack } from './write-probe';
import { lostVersion } from './lost-version';
import { apiErrors } from '../../apimachinery/errors/status-error';

/** One history the database has had since pgkube first ran on it (a row of database_history, migration 0025). */
export interface HistoryEpoch {
  epoch: number;
  /** the newest change this history shares with the one before */
  divergedAfter: bigint;
  /** the first resourceVersion this history hands out */
  resumedAt: bigint;
}

/**
 * How far past the highest resourceVersion the adopting instance has seen the sequence is moved. The adopting
 * instance knows exactly what it served; the others may have served more, up to the last value the lost primary drew,
 * and nothing of that survives in the new history. The margin covers a standby that lagged by fewer changes than it
 * (at 10,000 writes a second, more than a day of lag); an instance that saw a version past the margin finds the
 * database behind it at its next check and adopts again. A billion per failover leaves room for billions of
 * failovers in a bigint, and resourceVersions are opaque to clients.
 */
export const RESUME_MARGIN = 1_000_000_000n;

interface IdentityRow {
  system_identifier: string;
  newest: string;
  timeline: number | null;
  epoch: number;
  known_identifier: string;
  known_timeline: number;
}

const IDENTITY = `SELECT s.system_identifier::text AS system_identifier,
                         CASE WHEN pg_is_in_recovery() THEN NULL ELSE pgkube_timeline() END AS timeline,
                         h.epoch, h.system_identifier AS known_identifier, h.timeline AS known_timeline,
                         (SELECT COALESCE(MAX(resource_version), 0)::text FROM change_log) AS newest
                  FROM pg_control_system() s,
                       (SELECT * FROM database_history ORDER BY epoch DESC LIMIT 1) h`;

type EpochRow = { epoch: number; diverged_after: string; resumed_at: string };

/**
 * What this instance knows of the database's history: the highest resourceVersion it has seen (written, read, or
 * delivered by the change feed), and the ranges of resourceVersions that earlier histories handed out and the
 * database no longer has. `check` notices a new identity (a promoted standby, a restored backup) and adopts it
 * before any write of it can commit: migration 0025 refuses a resourceVersion on a timeline not adopted yet.
 *
 * Why adopting is safe with several instances: the adoption runs under the resourceVersion lock, so no write is
 * between reading the newest change and moving the sequence; every value any instance served came from the lost
 * history's sequence, and those past the new history's newest change were drawn after it (changes become visible in
 * resourceVersion order, and a standby replays a prefix of its primary's history): they exceed it by no more than the
 * values the lost primary drew in its lead (covered by RESUME_MARGIN, and exactly by the adopter's own highest), and
 * every value this history hands out is at least resumed_at. A high-water mark kept in the database would be lost with
 * the changes it was meant to cover, so each instance's memory and the margin are what is left to trust.
 */
@Injectable()
export class DatabaseHistory {
  private readonly logger = new Logger('DatabaseHistory');
  private highest = 0n;
  private epochs: HistoryEpoch[] = [];
  private checking?: Promise<void>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * Notes a resourceVersion this instance has written, read or delivered: never one read from a standby, which may
   * be of a history the primary no longer has (one left behind on a lost timeline) and would make every check adopt
   * again.
   */
  saw(version: bigint | string | null | undefined): void {
    if (version === null || version === undefined) return;
    const value = BigInt(version);
    if (value > this.highest) this.highest = value;
  }

  /** The newest history this instance knows of. */
  get epoch(): number {
    return this.epochs.at(-1)?.epoch ?? 0;
  }

  /**
   * The histories adopted after `after` up to `through`, as far as this instance has loaded them (a restored backup
   * may lack some of those numbers).
   */
  adoptedSince(after: number, through: number): HistoryEpoch[] {
    return this.epochs.filter((e) => e.epoch > after && e.epoch <= through);
  }

  /** Whether `version` was handed out by an earlier history and belongs to no change the database has. */
  lost(version: bigint): boolean {
    return this.epochs.some((e) => version > e.divergedAfter && version < e.resumedAt);
  }

  /** 410 Expired for a read at, or not older than, a version of a lost history: it names no state of the database. */
  refuseLost(version: bigint | undefined): void {
    if (version !== undefined && this.lost(version)) throw apiErrors.expired(lostVersion(version));
  }

  /** refuseLost after a check of the database's history, for a version that was not in it a moment ago. */
  async refuseLostNow(version: bigint): Promise<void> {
    await this.check();
    this.refuseLost(version);
  }

  /**
   * Compares the database's identity with the history last adopted and adopts a new one; then loads the histories
   * if another instance adopted one. One check at a time; a database in recovery (a standby behind the proxy for a
   * moment) is left for the next check.
   */
  check(): Promise<void> {
    this.checking ??= this.compare().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** check, once the database records its histories (from migration 0025 on; none on a database not migrated yet) */
  async checkIfRecorded(): Promise<void> {
    const { rows } = await this.pool.query<{ recorded: boolean }>(`SELECT to_regclass('database_history') IS NOT NULL AS recorded`);
    if (rows[0].recorded) await this.check();
  }

  private async compare(): Promise<void> {
    const { rows } = await this.pool.query<IdentityRow>(IDENTITY);
    if (this.diverged(rows[0])) await this.adopt();
    else if (rows[0].epoch !== this.epoch) await this.load();
  }

  /**
   * Whether the database is not the history last adopted: another cluster (a restored backup), another timeline (a
   * promoted standby), or one without changes this instance has seen (a dump restored in the same cluster: every
   * version this instance saw was committed, and the newest change is never compacted away). False on a standby.
   */
  private diverged(now: IdentityRow): boolean {
    if (now.timeline === null) return false;
    return now.system_identifier !== now.known_identifier || now.timeline !== now.known_timeline || BigInt(now.newest) < this.highest;
  }

  private async adopt(): Promise<void> {
    const client = await checkOut(this.pool);
    let broken = false;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(7365, 1)'); // (pgkube, resourceVersion allocation)
      const { rows } = await client.query<IdentityRow & { drawn: string }>(
        `SELECT i.*, (SELECT last_value::text FROM resource_version_seq) AS drawn FROM (${IDENTITY}) i`,
      );
      const [now] = rows;
      if (this.diverged(now)) {
        const newest = BigInt(now.newest);
        const start = [newest, BigInt(now.drawn), this.highest].reduce((a, b) => (a > b ? a : b)) + RESUME_MARGIN;
        await client.query(`SELECT setval('resource_version_seq', $1)`, [start.toString()]);
        await client.query(
          `INSERT INTO database_history (epoch, system_identifier, timeline, diverged_after, resumed_at) VALUES ($1, $2, $3, $4, $5)`,
          // past any epoch this instance knows: a restored backup may hold fewer than the database had
          [Math.max(now.epoch, this.epoch) + 1, now.system_identifier, now.timeline, newest.toString(), (start + 1n).toString()],
        );
        this.logger.warn({
          message: 'the database has a new history (a failover or a restore): adopted it',
          timeline: now.timeline,
          newestChange: newest.toString(),
          highestSeenHere: this.highest.toString(),
          resumesAt: (start + 1n).toString(),
        });
      }
      await client.query('COMMIT');
      // what this instance saw of the history before is behind the sequence now; it follows the new one
      this.highest = BigInt(now.newest);
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      giveBack(client, broken);
    }
    await this.load();
  }

  private async load(): Promise<void> {
    const { rows } = await this.pool.query<EpochRow>('SELECT epoch, diverged_after::text, resumed_at::text FROM database_history ORDER BY epoch');
    const known = this.epoch;
    this.epochs = rows.map((row) => ({ epoch: row.epoch, divergedAfter: BigInt(row.diverged_after), resumedAt: BigInt(row.resumed_at) }));
    // Adopted by another instance: what this one saw of the lost history is behind the sequence, which it then
    // follows. A version seen at or past where the new history resumed is of the new history (or past the margin,
    // in which case the next check finds the database behind it and adopts again, moving the sequence past it).
    for (const next of this.epochs.filter((e) => known > 0 && e.epoch > known)) {
      if (this.highest <= next.divergedAfter || this.highest >= next.resumedAt) continue;
      this.logger.warn(`this instance had seen resourceVersions up to ${this.highest}; the database's history diverged after ${next.divergedAfter}: the changes between are lost`);
      this.highest = next.divergedAfter;
    }
  }
}
