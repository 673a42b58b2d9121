import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from './database/database.tokens';

/** The stored objects of a resource that a definition served, taken as a whole once the definition is gone. */
@Injectable()
export class DefinedObjects {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * Deletes, in one statement, every stored object of `resource` in `group` last written before `resourceVersion`
   * (the triggers log a DELETED change for each).
   */
  async deleteWrittenBefore(group: string, resource: string, resourceVersion: bigint): Promise<void> {
    await this.pool.query('DELETE FROM objects WHERE api_group = $1 AND resource = $2 AND resource_version < $3', [
      group,
      resource,
      resourceVersion.toString(),
    ]);
  }
}
