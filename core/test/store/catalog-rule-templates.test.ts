import { expect } from 'chai';
import { deleteRuleTemplate, getRuleTemplate, listRuleTemplates, saveRuleTemplate } from '../../src/store/catalog-rule-templates.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

describe('catalog rule templates', () => {
  const catalog = useCatalogInMemory();

  it('saves a template and, saved again under its name, keeps its creation time', () => {
    expect(saveRuleTemplate(catalog.db, 'strict', { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } }, 10)).to.deep.equal({
      name: 'strict',
      rules: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } },
      createdMs: 10,
      updatedMs: 10,
    });
    saveRuleTemplate(catalog.db, 'strict', { 'mpegts-pcr-intervals': { maxIntervalMs: 100 } }, 20);
    expect(getRuleTemplate(catalog.db, 'strict')).to.deep.equal({ name: 'strict', rules: { 'mpegts-pcr-intervals': { maxIntervalMs: 100 } }, createdMs: 10, updatedMs: 20 });
  });

  it('lists templates by name and deletes one', () => {
    saveRuleTemplate(catalog.db, 'tr101290', {}, 1);
    saveRuleTemplate(catalog.db, 'lenient', {}, 2);
    expect(listRuleTemplates(catalog.db).map((template) => template.name)).to.deep.equal(['lenient', 'tr101290']);
    expect(deleteRuleTemplate(catalog.db, 'lenient')).to.be.true;
    expect(deleteRuleTemplate(catalog.db, 'lenient')).to.be.false;
    expect(getRuleTemplate(catalog.db, 'lenient')).to.be.undefined;
  });
});
