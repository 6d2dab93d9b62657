import { expect } from 'chai';
import { deleteConfigValue, getConfigValue, readConfig, setConfigValue } from '../../src/store/catalog-config.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

describe('catalog configuration', () => {
  const catalog = useCatalogInMemory();

  it('keeps JSON values by key and gives them back whole', () => {
    setConfigValue(catalog.db, 'port', 38180, 1);
    setConfigValue(catalog.db, 'roots', ['/recordings', '/mnt/usb'], 1);
    setConfigValue(catalog.db, 'port', 38181, 2);
    expect(getConfigValue(catalog.db, 'port')).to.equal(38181);
    expect(getConfigValue(catalog.db, 'absent')).to.be.undefined;
    expect(readConfig(catalog.db)).to.deep.equal({ port: 38181, roots: ['/recordings', '/mnt/usb'] });
  });

  it('stores null, refuses undefined, and deletes a key', () => {
    setConfigValue(catalog.db, 'proxy', null, 1);
    expect(getConfigValue(catalog.db, 'proxy')).to.equal(null);
    expect(() => setConfigValue(catalog.db, 'proxy', undefined, 2)).to.throw("configuration 'proxy' cannot hold undefined; delete the key instead");
    expect(deleteConfigValue(catalog.db, 'proxy')).to.be.true;
    expect(deleteConfigValue(catalog.db, 'proxy')).to.be.false;
    expect(readConfig(catalog.db)).to.deep.equal({});
  });
});
