/** @klvscope/rules: the rule set (schema, resolution, printing), the cited profiles and named templates. */
export { RulesError, type RulesErrorCode } from './rules-error.js';
export { cite, type CitedRules, type CitedValue, type RuleProfile } from './rule-profile.js';
export { DEFAULT_PROFILE, PROFILE_NAMES, getProfile, listProfiles } from './profiles.js';
export {
  DEFAULT_SHARED_SETTINGS,
  buildRuleSetSchema,
  type RuleSet,
  type RuleSetInput,
  type RuleSetSchemaOutput,
  type RuleSlices,
  type SharedSettings,
} from './schema.js';
export { profileProblems, resolveRuleSet, type ResolveOptions, type ResolvedRules } from './resolve-rule-set.js';
export {
  MAX_TEMPLATE_NAME_LENGTH,
  MemoryTemplateStore,
  assertTemplateName,
  deleteTemplate,
  listTemplates,
  restoreTemplate,
  saveTemplate,
  type RestoredTemplate,
  type RuleTemplate,
  type TemplateStore,
} from './templates.js';
export { printRuleSet } from './print-rule-set.js';
export { CatalogTemplateStore } from './catalog-template-store.js';
