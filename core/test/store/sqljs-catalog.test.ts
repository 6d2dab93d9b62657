import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { openSqlJsCatalog } from '../../src/store/sqljs-catalog.js';
import { describeCatalogContract } from '../../../test-support/catalog-contract.js';

const folders: string[] = [];
after(async function () {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describeCatalogContract('sql.js', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'klvscope-catalog-'));
  folders.push(folder);
  const path = join(folder, 'catalog.sqlite');
  const catalog = await openSqlJsCatalog(path);
  return {
    catalog,
    async reopen() {
      await catalog.close();
      return openSqlJsCatalog(path);
    },
  };
});

describe('the sql.js catalog', function () {
  it('runs an operation asked for during a transaction after the transaction, not inside it', async function () {
    const folder = await mkdtemp(join(tmpdir(), 'klvscope-catalog-'));
    folders.push(folder);
    const catalog = await openSqlJsCatalog(join(folder, 'catalog.sqlite'));
    let outside: Promise<void> | undefined;
    await catalog
      .transaction(async (tx) => {
        await tx.setConfigValue('inside', 1, 1);
        outside = catalog.setConfigValue('outside', 2, 1);
        await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await outside;
    expect(await catalog.readConfig()).to.deep.equal({ outside: 2 });
    await catalog.close();
  });
});
