/** @klvscope/rules: the rule set (schema, resolution), the cited profiles and named templates. */
export { RulesError, type RulesErrorCode } from './rules-error.js';
export { DEFAULT_PROFILE, getProfile, listProfiles, type CitedValue, type RuleProfile } from './profiles.js';
export { DEFAULT_MAX_POINTS_PER_CHECK, buildRuleSetSchema, resolveRuleSet, type ResolvedRules, type RuleSet, type RuleSetInput } from './schema.js';
export { MemoryTemplateStore, deleteTemplate, listTemplates, restoreTemplate, saveTemplate, type TemplateStore } from './templates.js';
export { printRuleSet } from './print-rule-set.js';
