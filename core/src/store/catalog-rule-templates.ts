/** Saved validation-rule templates, by name. The rules are JSON; their schema is @klvscope/rules'. */
import type { Database } from 'sql.js';
import { execute, jsonColumn, numberColumn, selectAll, selectOne, textColumn, type SqlRow } from './sql-query.js';

export interface RuleTemplateRow<R = unknown> {
  name: string;
  rules: R;
  createdMs: number;
  updatedMs: number;
}

/** Saves a template; saving over an existing name keeps its creation time. */
export function saveRuleTemplate(db: Database, name: string, rules: unknown, nowMs: number): RuleTemplateRow {
  execute(
    db,
    `INSERT INTO rule_templates (name, rules, created_ms, updated_ms) VALUES ($name, $rules, $now, $now)
     ON CONFLICT (name) DO UPDATE SET rules = excluded.rules, updated_ms = excluded.updated_ms`,
    { $name: name, $rules: JSON.stringify(rules), $now: nowMs },
  );
  return getRuleTemplate(db, name) as RuleTemplateRow;
}

export function getRuleTemplate<R = unknown>(db: Database, name: string): RuleTemplateRow<R> | undefined {
  const row = selectOne(db, 'SELECT * FROM rule_templates WHERE name = $name', { $name: name });
  return row && ruleTemplateFrom<R>(row);
}

/** Every template, by name. */
export function listRuleTemplates(db: Database): RuleTemplateRow[] {
  return selectAll(db, 'SELECT * FROM rule_templates ORDER BY name').map((row) => ruleTemplateFrom(row));
}

export function deleteRuleTemplate(db: Database, name: string): boolean {
  return execute(db, 'DELETE FROM rule_templates WHERE name = $name', { $name: name }) === 1;
}

export function ruleTemplateFrom<R>(row: SqlRow): RuleTemplateRow<R> {
  return { name: textColumn(row, 'name'), rules: jsonColumn<R>(row, 'rules'), createdMs: numberColumn(row, 'created_ms'), updatedMs: numberColumn(row, 'updated_ms') };
}
