/**
 * Rule templates kept in the store's catalog (the `rule_templates` table),
 * behind the TemplateStore the template functions use. Changes are made in
 * the catalog in memory; the caller saves the catalog (`store.saveCatalog()`).
 */
import { deleteRuleTemplate, getRuleTemplate, listRuleTemplates, saveRuleTemplate, type SqlDatabase } from '@klvscope/core/store';
import type { RuleSetInput } from './schema.js';
import type { TemplateStore } from './templates.js';

export class CatalogTemplateStore implements TemplateStore {
  constructor(
    private readonly catalog: SqlDatabase,
    private readonly clock: () => number = Date.now,
  ) {}

  get(name: string): RuleSetInput | undefined {
    return getRuleTemplate<RuleSetInput>(this.catalog, name)?.rules;
  }

  put(name: string, ruleSet: RuleSetInput): void {
    saveRuleTemplate(this.catalog, name, ruleSet, this.clock());
  }

  delete(name: string): boolean {
    return deleteRuleTemplate(this.catalog, name);
  }

  names(): string[] {
    return listRuleTemplates(this.catalog).map((row) => row.name);
  }
}
