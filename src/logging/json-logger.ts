import { ConsoleLogger, LogLevel } from '@nestjs/common';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** A log line's fields: `message` plus anything else worth a column (e.g. a request's verb and code). */
export type LogFields = { message: string } & Record<string, unknown>;

const isFields = (message: unknown): message is LogFields =>
  typeof message === 'object' && message !== null && !Array.isArray(message) && 'message' in message;

const bigintAsString = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * Nest's logger writing one JSON object a line: `time`, `level`, `context`, and the message, or the fields of a
 * structured message at the top level. Errors go to stderr, the rest to stdout.
 */
export class JsonLogger extends ConsoleLogger {
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
      ...(options.context ? { context: options.context } : {}),
      ...(isFields(message) ? message : { message }),
      ...(options.errorStack ? { stack: options.errorStack } : {}),
    };
    process[options.writeStreamType ?? 'stdout'].write(`${JSON.stringify(line, bigintAsString)}\n`);
  }
}
