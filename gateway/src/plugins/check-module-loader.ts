/**
 * Loads the check modules a team names in the configuration, by path
 * (relative to the configuration file) or by package name (resolved from
 * there too). A module offers its checks as its default export (one check
 * or an array), as a `checks` array, or as named exports; each is validated
 * with core's `assertCheckDefinition`, so a mistake names the module and the
 * problem instead of failing later inside a run.
 */
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertCheckDefinition, importModule, type AnyCheck } from '@klvscope/core';
import { GatewayError } from '../gateway-error.js';

function isPath(specifier: string): boolean {
  return specifier.startsWith('.') || isAbsolute(specifier);
}

/** The file URL of a module named by path or package name, resolved from `baseDir`. */
function locate(specifier: string, baseDir: string): string {
  if (isPath(specifier)) return pathToFileURL(resolve(baseDir, specifier)).href;
  try {
    return pathToFileURL(createRequire(join(baseDir, 'klvscope-plugins.cjs')).resolve(specifier)).href;
  } catch (cause) {
    throw new GatewayError('ERR_PLUGIN_LOAD', `check module '${specifier}': package not found from ${baseDir}`, { module: specifier, cause: String(cause) });
  }
}

function looksLikeCheck(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'id' in value && 'create' in value;
}

/** The checks a module offers, in export order. */
function checksOf(specifier: string, namespace: Record<string, unknown>): unknown[] {
  const fromDefault = namespace.default;
  if (Array.isArray(fromDefault)) return fromDefault as unknown[];
  if (fromDefault !== undefined) return [fromDefault];
  if (Array.isArray(namespace.checks)) return namespace.checks as unknown[];
  const named = Object.values(namespace).filter(looksLikeCheck);
  if (named.length === 0) throw new GatewayError('ERR_PLUGIN_INVALID', `check module '${specifier}' exports no check (a default export, a 'checks' array or named defineCheck results)`, { module: specifier });
  return named;
}

export async function loadCheckModules(specifiers: readonly string[], baseDir: string, builtIn: readonly AnyCheck[] = []): Promise<AnyCheck[]> {
  const loaded: AnyCheck[] = [];
  const taken = new Map<string, string>(builtIn.map((c) => [c.id, 'the built-in checks']));
  for (const specifier of specifiers) {
    const url = locate(specifier, baseDir);
    let namespace: Record<string, unknown>;
    try {
      namespace = (await importModule(url)) as Record<string, unknown>;
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new GatewayError('ERR_PLUGIN_LOAD', `check module '${specifier}' could not be loaded: ${why}`, { module: specifier });
    }
    for (const candidate of checksOf(specifier, namespace)) {
      try {
        assertCheckDefinition(candidate);
      } catch (cause) {
        const why = cause instanceof Error ? cause.message : String(cause);
        throw new GatewayError('ERR_PLUGIN_INVALID', `check module '${specifier}': ${why}`, { module: specifier });
      }
      const owner = taken.get(candidate.id);
      if (owner) throw new GatewayError('ERR_PLUGIN_DUPLICATE', `check module '${specifier}': check id '${candidate.id}' is already defined by ${owner}`, { module: specifier, id: candidate.id });
      taken.set(candidate.id, `'${specifier}'`);
      loaded.push(candidate);
    }
  }
  return loaded;
}
