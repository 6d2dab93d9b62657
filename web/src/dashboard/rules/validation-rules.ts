/** GET /validation-rules (docs/rest.md): the current set as given, its effective form, the profiles (default first), the templates. */
export interface ValidationRules {
  current: Record<string, unknown>;
  effective: { profile: string; shared: { maxPointsPerCheck: number; disabledChecks: string[] }; checks: Record<string, Record<string, unknown>> };
  profiles: string[];
  templates: Array<{ name: string; ruleSet: Record<string, unknown> }>;
}
