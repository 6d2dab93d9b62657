/** Deleting archive entries from the fleet's PostgreSQL: each hash's payloads, ingest runs and run files, one transaction a hash. */
import { deleteRunFiles, postgresCatalogOperations, type PostgresConnection } from '@klvscope/adapters/postgres';

/** Answers the hashes that had anything stored. */
export async function deleteFleetEntries(connection: PostgresConnection, hashes: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const hash of new Set(hashes)) {
    const had = await connection.transaction(async (db) => {
      const catalog = postgresCatalogOperations(db);
      const runs = await catalog.listIngestRuns(hash);
      for (const run of runs) {
        await deleteRunFiles(db, run.id);
        await catalog.deleteIngestRun(run.id);
      }
      return (await catalog.deleteStagePayloads(hash)) > 0 || runs.length > 0;
    });
    if (had) deleted.push(hash);
  }
  return deleted;
}
