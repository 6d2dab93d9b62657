/**
 * Named rule-set templates, as plain data over a small store interface (the
 * store issue plugs sql.js in): save (validated), list, restore (validated
 * again, so a template saved before a check changed is caught), delete.
 */
import type { AnyCheck } from '@klvscope/core';
import { resolveRuleSet, type ResolvedRules, type RuleSetInput } from './schema.js';
import { RulesError } from './rules-error.js';

export interface TemplateStore {
  get(name: string): RuleSetInput | undefined;
  set(name: string, ruleSet: RuleSetInput): void;
  delete(name: string): boolean;
  names(): string[];
}

export class MemoryTemplateStore implements TemplateStore {
  private readonly templates = new Map<string, RuleSetInput>();
  get(name: string): RuleSetInput | undefined {
    return this.templates.get(name);
  }
  set(name: string, ruleSet: RuleSetInput): void {
    this.templates.set(name, ruleSet);
  }
  delete(name: string): boolean {
    return this.templates.delete(name);
  }
  names(): string[] {
    return [...this.templates.keys()];
  }
}

/** Letters, digits, space, dot, dash and underscore; no path characters; at most 100. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;

function checkName(name: string): void {
  if (!NAME.test(name) || name.includes('..')) {
    throw new RulesError('ERR_TEMPLATE_NAME', `invalid template name '${name}': 1-100 letters, digits, spaces, '.', '-' or '_', starting with a letter or digit`);
  }
}

export function saveTemplate(store: TemplateStore, checks: readonly AnyCheck[], name: string, ruleSet: RuleSetInput): void {
  checkName(name);
  resolveRuleSet(checks, ruleSet);
  store.set(name, structuredClone(ruleSet));
}

export function listTemplates(store: TemplateStore): string[] {
  return store.names().sort();
}

export function restoreTemplate(store: TemplateStore, checks: readonly AnyCheck[], name: string): ResolvedRules & { input: RuleSetInput } {
  const input = store.get(name);
  if (!input) throw new RulesError('ERR_TEMPLATE_NOT_FOUND', `no rule template named '${name}'`);
  return { ...resolveRuleSet(checks, input), input: structuredClone(input) };
}

export function deleteTemplate(store: TemplateStore, name: string): void {
  if (!store.delete(name)) throw new RulesError('ERR_TEMPLATE_NOT_FOUND', `no rule template named '${name}'`);
}
