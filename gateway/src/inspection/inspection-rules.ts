/**
 * The service's current validation rule set: what the user gave (kept in
 * the catalog under `rules.current`, as given) and its effective form
 * against the registered checks. Replacing it is validated first (a bad
 * set changes nothing); the file workflow follows the current set, so a
 * rule change makes `process` run again over the stored runs.
 */
import { type AnyCheck } from '@klvscope/core';
import { getConfigValue, setConfigValue, type Store } from '@klvscope/core/store';
import { FileWorkflow, type FileSourceOpener } from '@klvscope/core/workflow';
import { CatalogTemplateStore, resolveRuleSet, type ResolvedRules, type RuleSetInput } from '@klvscope/rules';

const CURRENT_RULES_CONFIG_KEY = 'rules.current';

export class InspectionRules {
  readonly templates: CatalogTemplateStore;
  private input: RuleSetInput;
  private resolvedRules: ResolvedRules;
  private cachedWorkflow: FileWorkflow | null = null;

  constructor(
    private readonly store: Store,
    /** Every check the service knows (built-in and configured plugins). */
    readonly checks: readonly AnyCheck[],
    private readonly files: FileSourceOpener,
    private readonly clock: () => number = Date.now,
  ) {
    this.templates = new CatalogTemplateStore(store.catalog.db, clock);
    const stored = getConfigValue<RuleSetInput>(store.catalog.db, CURRENT_RULES_CONFIG_KEY);
    this.input = stored ?? {};
    // A stored set that no longer fits the checks (a plugin gone, say) gives way to the defaults rather than stop the service.
    this.resolvedRules = this.tryResolve(this.input) ?? resolveRuleSet(checks, (this.input = {}));
  }

  /** The rule set as the user gave it. */
  get current(): RuleSetInput {
    return structuredClone(this.input);
  }

  /** The effective rule set: profile, shared settings and every check's slice. */
  get resolved(): ResolvedRules {
    return this.resolvedRules;
  }

  /** Validates and installs a new current rule set (RulesError ERR_RULES_INVALID, listing every problem, changes nothing). */
  async replace(input: RuleSetInput): Promise<ResolvedRules> {
    const resolved = resolveRuleSet(this.checks, input);
    this.input = structuredClone(input);
    this.resolvedRules = resolved;
    this.cachedWorkflow = null;
    setConfigValue(this.store.catalog.db, CURRENT_RULES_CONFIG_KEY, this.input, this.clock());
    await this.store.saveCatalog();
    return resolved;
  }

  /** The enabled checks and their rule slices under the current rules: what a live session runs. */
  checkRun(): { checks: readonly AnyCheck[]; rules: Readonly<Record<string, unknown>> } {
    const enabled = new Set(this.resolvedRules.enabledCheckIds);
    return { checks: this.checks.filter((check) => enabled.has(check.id)), rules: this.resolvedRules.slices };
  }

  /** The file workflow for the current rules (the same one until the rules change). */
  workflow(): FileWorkflow {
    if (this.cachedWorkflow) return this.cachedWorkflow;
    const { checks, rules } = this.checkRun();
    this.cachedWorkflow = new FileWorkflow({ store: this.store, files: this.files, checks, rules });
    return this.cachedWorkflow;
  }

  private tryResolve(input: RuleSetInput): ResolvedRules | null {
    try {
      return resolveRuleSet(this.checks, input);
    } catch {
      return null;
    }
  }
}
