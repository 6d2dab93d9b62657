/** A catalog database in memory, migrated to the current schema, for repository tests. */
import type { Database } from 'sql.js';
import { CATALOG_MIGRATIONS } from '../../src/store/catalog-schema.js';
import { migrateDatabase } from '../../src/store/schema-migrations.js';
import { loadSqlEngine } from '../../src/store/sql-engine.js';

export function useCatalogInMemory(): { readonly db: Database } {
  const catalog = {} as { db: Database };
  beforeEach(async () => {
    catalog.db = new (await loadSqlEngine()).Database();
    migrateDatabase(catalog.db, CATALOG_MIGRATIONS, 'catalog');
  });
  afterEach(() => catalog.db.close());
  return catalog;
}
