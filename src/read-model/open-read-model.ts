/** The read model beside the payout registry: PostgreSQL when DATABASE_URL names a server, else the batch store's SQLite file. */
import type { Config } from '../config/env';
import { engineDatabasePath } from '../db/database';
import type { ReadModel } from './read-model';
import { pgReadModel, sqliteReadModel } from './sql-read-model';

export async function openReadModel(
  config: Pick<Config, 'DATA_DIR'> & Partial<Pick<Config, 'DATABASE_URL'>>,
): Promise<ReadModel> {
  if (config.DATABASE_URL) return pgReadModel(config.DATABASE_URL);
  return Promise.resolve(sqliteReadModel(engineDatabasePath(config.DATA_DIR)));
}
