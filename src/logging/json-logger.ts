import { ConsoleLogger, LogLevel } from '@nestjs/common';
import cluster from 'node:cluster';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Levels whose lines are written at once; the others (a request's line among them) wait for the next batch. */
const IMMEDIATE: ReadonlySet<LogLevel> = new Set(['fatal', 'error', 'warn']);

/** A log line's fields: `message` plus anything else worth a column (e.g. a request's verb and code). */
export type LogFields = { message: string } & Record<string, unknown>;

/** A worker's lines name its process: the lines of every worker of `--workers N` reach the same output. */
const PROCESS_FIELDS = cluster.isWorker ? { pid: process.pid } : {};

const isFields = (message: unknown): message is LogFields =>
  typeof message === 'object' && message !== null && !Array.isArray(message) && 'message' in message;

const bigintAsString = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * Nest's logger writing one JSON object a line: `time`, `level`, `context`, and the message, or the fields of a
 * structured message at the top level. Errors go to stderr, the rest to stdout.
 *
 * Lines of `log` and below are gathered and written together once the work of the current turn of the event loop is
 * done, as production loggers buffer: one write of many lines instead of a write (a system call, synchronous for
 * pipes and files) per request. Warnings and errors are written at once, after the lines gathered before them, and
 * whatever is gathered is written when the process exits.
 */
export class JsonLogger extends ConsoleLogger {
  private gathered: string[] = [];
  private readonly writeGathered = (): void => {
    if (this.gathered.length === 0) return;
    const text = this.gathered.join('');
    this.gathered = [];
    process.removeListener('exit', this.writeGathered);
    process.stdout.write(text);
  };

  constructor(level: LogLevel) {
    super({ json: true, logLevels: LEVELS.slice(0, LEVELS.indexOf(level) + 1) });
  }

  protected printAsJson(
    message: unknown,
    options: { context: string; logLevel: LogLevel; writeStreamType?: 'stdout' | 'stderr'; errorStack?: unknown },
  ): void {
    const line = {
      time: new Date().toISOString(),
      level: options.logLevel,
      ...PROCESS_FIELDS,
      ...(options.context ? { context: options.context } : {}),
      ...(isFields(message) ? message : { message }),
      ...(options.errorStack ? { stack: options.errorStack } : {}),
    };
    const text = `${JSON.stringify(line, bigintAsString)}\n`;
    const stream = options.writeStreamType ?? 'stdout';
    if (stream === 'stdout' && !IMMEDIATE.has(options.logLevel)) {
      if (this.gathered.push(text) === 1) {
        setImmediate(this.writeGathered);
        process.once('exit', this.writeGathered);
      }
      return;
    }
    this.writeGathered();
    process[stream].write(text);
  }
}
