import { rmSync } from 'node:fs';
import { RunningDatabase } from '../../src/storage/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as Record<string, unknown>).__pgkubeTestDatabase as
    | { database: RunningDatabase; dir: string }
    | undefined;
  if (!state) return;
  await state.database.stop();
  rmSync(state.dir, { recursive: true, force: true });
}
