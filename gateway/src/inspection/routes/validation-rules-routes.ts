/**
 * The validation rule set and its saved templates (spec "Validation rules").
 * Bodies are checked only for their outline here (an object, a name that is
 * a string); whether a rule set fits the registered checks is @klvscope/rules'
 * judgement, a 422 ERR_RULES_INVALID listing every problem, so a client sees
 * them all at once with their paths (`checks.<id>.<rule>: ...`).
 */
import * as z from 'zod/mini';
import { PROFILE_NAMES, deleteTemplate, listTemplates, restoreTemplate, saveTemplate, type RuleSetInput } from '@klvscope/rules';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

/** A rule set as given (`profile`, `shared`, `checks`, all optional); its content is the rules package's to judge. */
const ruleSetInputSchema = z.record(z.string(), z.unknown());

/** The effective rule set: the profile applied, every rule of every registered check filled. */
export const effectiveRuleSetSchema = z.object({
  profile: z.string(),
  shared: z.object({ maxPointsPerCheck: z.number(), disabledChecks: z.array(z.string()) }),
  checks: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export const ruleTemplateSchema = z.object({ name: z.string(), ruleSet: ruleSetInputSchema });

export const validationRulesSchema = z.object({
  /** The current rule set as the user gave it. */
  current: ruleSetInputSchema,
  effective: effectiveRuleSetSchema,
  /** The profiles a rule set may name, the default first. */
  profiles: z.array(z.string()),
  /** The saved templates, by name. */
  templates: z.array(ruleTemplateSchema),
});

const templateSaveBodySchema = z.strictObject({
  name: z.string(),
  /** Default: the current rule set. */
  ruleSet: z.optional(ruleSetInputSchema),
  /** Overwrite a template of that name (else 409 ERR_TEMPLATE_EXISTS). */
  replace: z.optional(z.boolean()),
});

const templateRestoreBodySchema = z.strictObject({ name: z.string() });

export const validationRulesRoutes: RouteModule = (deps) => {
  const { rules, store } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/validation-rules',
      summary: 'returns the current rule set, its effective form, the profiles and the saved templates',
      schemas: { response: validationRulesSchema },
      handle: (): z.output<typeof validationRulesSchema> => ({
        current: rules.current as Record<string, unknown>,
        effective: rules.resolved.ruleSet,
        profiles: [...PROFILE_NAMES],
        templates: listTemplates(rules.templates).map((name) => ({ name, ruleSet: (rules.templates.get(name) ?? {}) as Record<string, unknown> })),
      }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/validation-rules/current',
      summary: 'replaces the current rule set; answers the effective one',
      schemas: { body: ruleSetInputSchema, response: effectiveRuleSetSchema },
      // InspectionRules validates before it changes anything, and saves the catalog.
      handle: async ({ body }) => (await rules.replace(body as RuleSetInput)).ruleSet,
    }),
    defineRoute({
      method: 'POST',
      path: '/validation-rules/templates',
      summary: 'saves a named template: the rule set given, or the current one',
      status: 201,
      schemas: { body: templateSaveBodySchema, response: ruleTemplateSchema },
      handle: async ({ body }) => {
        const ruleSet = (body.ruleSet as RuleSetInput | undefined) ?? rules.current;
        const saved = saveTemplate(rules.templates, rules.checks, body.name, ruleSet, { replace: body.replace === true });
        // The template store writes the catalog in memory only.
        await store.saveCatalog();
        return saved;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/validation-rules/current/restore',
      summary: 'restores the current rule set from a saved template; answers the effective one',
      schemas: { body: templateRestoreBodySchema, response: effectiveRuleSetSchema },
      handle: async ({ body }) => {
        // Validated again: a template saved before a check changed is a 422, and the current set stays.
        const restored = restoreTemplate(rules.templates, rules.checks, body.name);
        return (await rules.replace(restored.ruleSet)).ruleSet;
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/validation-rules/templates/:name',
      summary: 'deletes a saved template',
      schemas: { params: z.object({ name: z.string() }) },
      handle: async ({ params }) => {
        deleteTemplate(rules.templates, params.name);
        await store.saveCatalog();
      },
    }),
  ];
};
