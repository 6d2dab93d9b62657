/**
 * The checks and rules a CLI command runs with: the built-in checks plus the
 * check modules the configuration names, and the rule set from the profile,
 * the configuration and a --rules file.
 */
import { readFile } from 'node:fs/promises';
import type { AnyCheck } from '@klvscope/core';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { loadCliConfig } from '../config/cli-config.js';
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
}

async function readRulesFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new GatewayError('ERR_CONFIG_UNREADABLE', `rules file ${path} cannot be read: ${(cause as Error).message}`);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (cause) {
    throw new GatewayError('ERR_CONFIG_INVALID', `rules file ${path} is not valid JSON: ${(cause as Error).message}`);
  }
}

export async function loadCliChecks(options: RuleOptions): Promise<CliChecks> {
  const config = await loadCliConfig(options.config);
  const plugins = await loadCheckModules(config.plugins, config.baseDir, BUILT_IN_CHECKS);
  const checks = [...BUILT_IN_CHECKS, ...plugins];
  const fromFile = options.rules ? await readRulesFile(options.rules) : {};
  const input = { ...(config.rules ?? {}), ...fromFile };
  const bySlice = (input.checks ?? {}) as Record<string, unknown>;
  return { checks, rules: bySlice };
}
