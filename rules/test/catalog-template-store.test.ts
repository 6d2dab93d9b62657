import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@klvscope/core/store';
import { CatalogTemplateStore, listTemplates, restoreTemplate, saveTemplate, deleteTemplate } from '../src/index.js';
import { CHECKS } from './test-checks.js';

describe('rule templates in the catalog', () => {
  let dataDir = '';
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'klvscope-templates-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('saves, restores and deletes templates that outlive the process’s store', async () => {
    const first = await Store.open({ dataDir });
    const templates = new CatalogTemplateStore(first.catalog.db);
    saveTemplate(templates, CHECKS, 'night ops', { profile: 'tr101290', checks: { 'team-check': { limit: 3 } } });
    saveTemplate(templates, CHECKS, 'day', {});
    await first.close();

    const second = await Store.open({ dataDir });
    const reopened = new CatalogTemplateStore(second.catalog.db);
    expect(listTemplates(reopened)).to.deep.equal(['day', 'night ops']);
    expect(restoreTemplate(reopened, CHECKS, 'night ops').resolved.slices['team-check']).to.deep.include({ limit: 3 });
    deleteTemplate(reopened, 'day');
    expect(reopened.names()).to.deep.equal(['night ops']);
    expect(reopened.delete('day')).to.equal(false);
    await second.close();
  });
});
