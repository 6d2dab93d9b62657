/**
 * The checks and rules a CLI command runs with: the built-in checks plus the
 * check modules the configuration names, and the rule set from the profile,
 * the configuration and a --rules file.
 */
import { readFile } from 'node:fs/promises';
import type { AnyCheck } from '@klvscope/core';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { resolveRuleSet, type RuleSet, type RuleSetInput } from '@klvscope/rules';
import { loadCliConfig, type CliConfig } from '../config/cli-config.js';
import { GatewayError } from '../gateway-error.js';
import { loadCheckModules } from '../plugins/check-module-loader.js';

export interface RuleOptions {
  config?: string;
  profile?: string;
  rules?: string;
}

export interface CliChecks {
  checks: AnyCheck[];
  /** The rule slices of a run, by check id. */
  rules: Record<string, unknown>;
  ruleSet: RuleSet;
}

async function readRulesFile(path: string): Promise<RuleSetInput> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new GatewayError('ERR_CONFIG_UNREADABLE', `rules file ${path} cannot be read: ${(cause as Error).message}`);
  }
  try {
    return JSON.parse(text) as RuleSetInput;
  } catch (cause) {
    throw new GatewayError('ERR_CONFIG_INVALID', `rules file ${path} is not valid JSON: ${(cause as Error).message}`);
  }
}

/** The rule set input: the configuration's rules, then a --rules file over them (per check, per rule). */
function mergeRuleInputs(base: RuleSetInput, over: RuleSetInput): RuleSetInput {
  const checks: Record<string, Record<string, unknown>> = { ...(base.checks ?? {}) };
  for (const [id, slice] of Object.entries(over.checks ?? {})) checks[id] = { ...(checks[id] ?? {}), ...slice };
  return { ...base, ...over, shared: { ...(base.shared ?? {}), ...(over.shared ?? {}) }, checks };
}

/** The configuration file and every check it makes available: the built-in ones, then its check modules. */
export async function loadConfiguredChecks(configPath: string | undefined): Promise<{ config: CliConfig; checks: AnyCheck[] }> {
  const config = await loadCliConfig(configPath);
  const plugins = await loadCheckModules(config.plugins, config.baseDir, BUILT_IN_CHECKS);
  return { config, checks: [...BUILT_IN_CHECKS, ...plugins] };
}

export async function loadCliChecks(options: RuleOptions): Promise<CliChecks> {
  const { config, checks } = await loadConfiguredChecks(options.config);
  const fromConfig = (config.rules ?? {}) as RuleSetInput;
  const input = options.rules ? mergeRuleInputs(fromConfig, await readRulesFile(options.rules)) : fromConfig;
  const { ruleSet, slices, enabledCheckIds } = resolveRuleSet(checks, input, { profile: options.profile ?? config.profile });
  // shared.disabledChecks takes checks out of the run.
  const enabled = new Set(enabledCheckIds);
  return { checks: checks.filter((c) => enabled.has(c.id)), rules: slices, ruleSet };
}
