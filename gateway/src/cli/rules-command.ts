/** `klvscope rules print [--profile NAME]` and `klvscope rules check FILE`: the effective rule set, and a rule file's validity. */
import { printRuleSet } from '@klvscope/rules';
import { loadCliChecks, type RuleOptions } from './cli-checks.js';

export async function runRulesPrint(options: RuleOptions & { json?: boolean }): Promise<void> {
  const { checks, ruleSet } = await loadCliChecks(options);
  process.stdout.write(`${options.json ? JSON.stringify(ruleSet, null, 2) : printRuleSet(ruleSet, checks)}\n`);
}

/** Validates a rule file against every loaded check; a RulesError (exit 2) lists each problem with its path. */
export async function runRulesCheck(file: string, options: RuleOptions): Promise<void> {
  const { ruleSet } = await loadCliChecks({ ...options, rules: file });
  process.stdout.write(`${file}: valid (profile ${ruleSet.profile}, ${Object.keys(ruleSet.checks).length} checks)\n`);
}
