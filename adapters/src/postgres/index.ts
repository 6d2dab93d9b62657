/** The PostgreSQL backends of a fleet (DESIGN.md "The fleet"): the catalog, its migrations and its connection. */
export { connectPostgresCatalog, postgresCatalogOperations } from './postgres-catalog.js';
export { PostgresConnection, describeUrl, type PostgresConnectionOptions, type SqlRunner } from './postgres-connection.js';
export { migratePostgres, postgresSchemaVersion, POSTGRES_CATALOG_MIGRATIONS, type PostgresMigration } from './postgres-migrations.js';
export { catalogError, isCatalogUnavailable } from './postgres-unavailable.js';
