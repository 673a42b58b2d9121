import { Inject, Injectable } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from './generated/prisma/client';
import { PG_POOL } from './database.tokens';

/** The Prisma client, over the same pg pool as the hot paths (the `@prisma/adapter-pg` driver adapter). */
@Injectable()
export class PrismaService extends PrismaClient {
  constructor(@Inject(PG_POOL) pool: Pool) {
    super({ adapter: new PrismaPg(pool) });
  }
}
