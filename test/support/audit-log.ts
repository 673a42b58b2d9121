import { existsSync, readFileSync } from 'node:fs';

/**
 * The audit events a log backend has written to `path` so far. The backend appends batches while a test polls, so
 * the last line may still be half written: only lines ended by a newline are read.
 */
export function auditEventsIn(path: string): any[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}
