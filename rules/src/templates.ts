/**
 * Named rule-set templates, as plain data over a small store interface: the
 * in-memory store here, sql.js in the catalog database later (the store
 * issue implements TemplateStore). A template keeps the rule set as the user
 * gave it (RuleSetInput), not the effective one, so the profile and the
 * checks' defaults it did not override stay current.
 *
 * Save validates against the registered checks; restore validates again, so
 * a template saved before a check changed or went away is reported (with
 * every problem's path) instead of running with a stale rule.
 */
import type { AnyCheck } from '@klvscope/core';
import { resolveRuleSet, type ResolvedRules } from './resolve-rule-set.js';
import { RulesError } from './rules-error.js';
import type { RuleSetInput } from './schema.js';

/** Where templates live. Synchronous, as sql.js is; values are JSON data the store may keep as text. */
export interface TemplateStore {
  /** The rule set saved under `name`, or undefined. */
  get(name: string): RuleSetInput | undefined;
  /** Saves or replaces. */
  put(name: string, ruleSet: RuleSetInput): void;
  /** Whether a template was there to delete. */
  delete(name: string): boolean;
  /** Every template name, in any order. */
  names(): string[];
}

/** A TemplateStore in a Map, for tests and for runs without a catalog database. Keeps its own copies. */
export class MemoryTemplateStore implements TemplateStore {
  private readonly templates = new Map<string, RuleSetInput>();

  get(name: string): RuleSetInput | undefined {
    const found = this.templates.get(name);
    return found === undefined ? undefined : structuredClone(found);
  }

  put(name: string, ruleSet: RuleSetInput): void {
    this.templates.set(name, structuredClone(ruleSet));
  }

  delete(name: string): boolean {
    return this.templates.delete(name);
  }

  names(): string[] {
    return [...this.templates.keys()];
  }
}

export interface RuleTemplate {
  name: string;
  /** The rule set as saved: a validated copy, JSON data. */
  ruleSet: RuleSetInput;
}

export interface RestoredTemplate extends RuleTemplate {
  /** The effective rule set of the template against the checks registered now. */
  resolved: ResolvedRules;
}

export const MAX_TEMPLATE_NAME_LENGTH = 100;

/**
 * A template name is a path segment (`DELETE /validation-rules/templates/{name}`)
 * and may become a file name: 1 to 100 characters, no '/', '\' or control
 * character, not '.' or '..', no space at either end. Returns the name;
 * RulesError ERR_TEMPLATE_NAME_INVALID saying which rule it breaks otherwise.
 */
export function assertTemplateName(name: unknown): string {
  const problem = templateNameProblem(name);
  if (problem === null) return name as string;
  throw new RulesError('ERR_TEMPLATE_NAME_INVALID', `invalid template name ${JSON.stringify(name) ?? String(name)}: ${problem}`, [problem], { name });
}

function templateNameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'a template name is a string';
  if (name === '') return 'a template name is not empty';
  // Counted in characters (code points), as a user counts them.
  if ([...name].length > MAX_TEMPLATE_NAME_LENGTH) return `at most ${MAX_TEMPLATE_NAME_LENGTH} characters`;
  if (name.trim() !== name) return 'no space at the start or the end';
  if (/[/\\]/.test(name)) return "no '/' or '\\' (a name is one path segment)";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here.
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'no control character';
  if (name === '.' || name === '..') return "not '.' or '..'";
  return null;
}

/**
 * Saves `ruleSet` as template `name`, after validating it against `checks`
 * (RulesError ERR_RULES_INVALID with every problem otherwise). An existing
 * template is replaced only with `{ replace: true }` (ERR_TEMPLATE_EXISTS
 * otherwise). Returns what was stored.
 */
export function saveTemplate(store: TemplateStore, checks: readonly AnyCheck[], name: string, ruleSet: RuleSetInput, options: { replace?: boolean } = {}): RuleTemplate {
  assertTemplateName(name);
  resolveRuleSet(checks, ruleSet);
  if (options.replace !== true && store.get(name) !== undefined) {
    throw new RulesError('ERR_TEMPLATE_EXISTS', `a rule template named '${name}' exists; save with replace to overwrite it`, [], { name });
  }
  const stored = asJsonData(ruleSet);
  store.put(name, stored);
  return { name, ruleSet: asJsonData(stored) };
}

/** The template names, sorted (by code point, so the order does not depend on the locale). */
export function listTemplates(store: TemplateStore): string[] {
  return store.names().sort();
}

/**
 * Template `name`: a copy of the saved rule set and its resolution against
 * `checks`. RulesError ERR_TEMPLATE_NOT_FOUND for an unknown name;
 * ERR_RULES_INVALID (message prefixed with the template's name) when it no
 * longer fits the registered checks.
 */
export function restoreTemplate(store: TemplateStore, checks: readonly AnyCheck[], name: string): RestoredTemplate {
  const saved = store.get(assertTemplateName(name));
  if (saved === undefined) throw notFound(name);
  const ruleSet = asJsonData(saved);
  try {
    return { name, ruleSet, resolved: resolveRuleSet(checks, ruleSet) };
  } catch (error) {
    if (error instanceof RulesError && error.code === 'ERR_RULES_INVALID') {
      throw new RulesError(error.code, `rule template '${name}': ${error.message}`, error.problems, { name });
    }
    throw error;
  }
}

/** Deletes template `name`; RulesError ERR_TEMPLATE_NOT_FOUND when there is none. */
export function deleteTemplate(store: TemplateStore, name: string): void {
  if (!store.delete(assertTemplateName(name))) throw notFound(name);
}

function notFound(name: string): RulesError {
  return new RulesError('ERR_TEMPLATE_NOT_FOUND', `no rule template named '${name}'`, [], { name });
}

/** A deep copy that is plain JSON data: what a store can keep as text and give back unchanged. */
function asJsonData(ruleSet: RuleSetInput): RuleSetInput {
  return JSON.parse(JSON.stringify(ruleSet)) as RuleSetInput;
}
