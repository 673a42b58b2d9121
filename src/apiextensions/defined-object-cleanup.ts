import { Inject, Injectable, Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../database/database.tokens';
import { KindDefinition } from '../registry/kind-definition';

/**
 * Deletes the objects of a resource whose definition is gone. Every instance that sees the definition go runs it;
 * the first deletes the rows (the triggers log one DELETED change each, which reaches every watcher) and the others
 * find nothing left. Only objects not written since the definition went are deleted, so that a definition created
 * again at once keeps the objects made under it.
 */
@Injectable()
export class DefinedObjectCleanup {
  private readonly logger = new Logger('DefinedObjectCleanup');

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async deleteObjects(kind: KindDefinition, definitionDeletedAt: bigint): Promise<void> {
    try {
      await this.pool.query('DELETE FROM objects WHERE api_group = $1 AND resource = $2 AND resource_version < $3', [
        kind.group,
        kind.resource,
        definitionDeletedAt.toString(),
      ]);
    } catch (error) {
      this.logger.error(`deleting the objects of ${kind.resource}.${kind.group} failed: ${(error as Error).message}`);
    }
  }
}
