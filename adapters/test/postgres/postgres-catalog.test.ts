import { expect } from 'chai';
import { StoreError } from '@klvscope/core/store';
import { connectPostgresCatalog, migratePostgres, PostgresConnection, POSTGRES_CATALOG_MIGRATIONS } from '../../src/postgres/index.js';
import { describeCatalogContract } from '../../../test-support/catalog-contract.js';
import { freeTcpPort, PostgresCluster, requirePostgres } from '../../../test-support/postgres-cluster.js';
import { rejectionOf } from '../../../test-support/thrown.js';

describe('the PostgreSQL catalog', function () {
  this.timeout(60_000);
  let cluster: PostgresCluster | undefined;
  let databases = 0;
  const newDatabase = (): string => cluster!.createDatabase(`catalog_${++databases}`);

  before(async function () {
    requirePostgres(this);
    cluster = await PostgresCluster.start();
  });
  after(function () {
    cluster?.remove();
  });

  describeCatalogContract('PostgreSQL', async () => {
    const url = newDatabase();
    const catalog = await connectPostgresCatalog(url);
    return {
      catalog,
      async reopen() {
        await catalog.close();
        return connectPostgresCatalog(url);
      },
    };
  });

  it('migrates once when nodes connect at the same time, and records each version', async function () {
    const url = newDatabase();
    const catalogs = await Promise.all([1, 2, 3, 4].map(() => connectPostgresCatalog(url)));
    const [one] = catalogs;
    const versions = await one.connection.query<{ version: number; name: string }>('SELECT version, name FROM klvscope_schema ORDER BY version');
    expect(versions).to.deep.equal(POSTGRES_CATALOG_MIGRATIONS.map(({ version, name }) => ({ version, name })));
    for (const catalog of catalogs) expect(await catalog.schemaVersion()).to.equal(POSTGRES_CATALOG_MIGRATIONS.length);
    await Promise.all(catalogs.map((catalog) => catalog.close()));
  });

  it('refuses a catalog whose schema is newer than this klvscope knows, with a clear message', async function () {
    const url = newDatabase();
    const newer = new PostgresConnection(url);
    await migratePostgres(newer, [...POSTGRES_CATALOG_MIGRATIONS, { version: POSTGRES_CATALOG_MIGRATIONS.length + 1, name: 'from the future', sql: 'CREATE TABLE later (x int)' }]);
    await newer.end();
    const error = await rejectionOf(connectPostgresCatalog(url));
    expect(error).to.be.instanceOf(StoreError);
    expect((error as StoreError).code).to.equal('ERR_STORE_SCHEMA_TOO_NEW');
    const known = POSTGRES_CATALOG_MIGRATIONS.length;
    expect((error as StoreError).message).to.contain(`schema version ${known + 1}, newer than this klvscope knows (${known}); upgrade klvscope`);
  });

  it('leaves the previous version whole when a migration fails', async function () {
    const url = newDatabase();
    const connection = new PostgresConnection(url);
    const broken = [...POSTGRES_CATALOG_MIGRATIONS, { version: POSTGRES_CATALOG_MIGRATIONS.length + 1, name: 'broken', sql: 'CREATE TABLE half (x int); SELECT no_such_function()' }];
    const error = await rejectionOf(migratePostgres(connection, broken));
    expect((error as StoreError).code).to.equal('ERR_STORE_MIGRATION_FAILED');
    const [half] = await connection.query<{ present: boolean }>(`SELECT to_regclass('half') IS NOT NULL AS present`);
    expect(half?.present).to.equal(false);
    await connection.end();
    const catalog = await connectPostgresCatalog(url);
    expect(await catalog.schemaVersion()).to.equal(POSTGRES_CATALOG_MIGRATIONS.length);
    await catalog.close();
  });

  it('says the catalog is unavailable, naming where, when no server answers', async function () {
    const port = await freeTcpPort();
    const error = await rejectionOf(connectPostgresCatalog(`postgres://postgres:secret@127.0.0.1:${port}/none`, { connectTimeoutMs: 2_000 }));
    expect((error as StoreError).code).to.equal('ERR_CATALOG_UNAVAILABLE');
    expect((error as StoreError).message).to.contain(`the catalog's PostgreSQL at 127.0.0.1:${port}/none cannot be reached`);
    expect((error as StoreError).message).to.not.contain('secret');
  });

  it('answers unavailable while the server is down and works again once it is back, on the same catalog', async function () {
    const catalog = await connectPostgresCatalog(newDatabase(), { connectTimeoutMs: 2_000 });
    await catalog.setConfigValue('before', 1, 1);
    cluster!.stopServer();
    try {
      const error = await rejectionOf(catalog.getConfigValue('before'));
      expect((error as StoreError).code).to.equal('ERR_CATALOG_UNAVAILABLE');
    } finally {
      cluster!.startServer();
    }
    expect(await catalog.getConfigValue('before')).to.equal(1);
    await catalog.setConfigValue('after', 2, 2);
    expect(await catalog.readConfig()).to.deep.equal({ after: 2, before: 1 });
    await catalog.close();
  });
});
