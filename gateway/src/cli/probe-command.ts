/**
 * `klvscope probe --catalog URL --name NAME [--source URL …]`: live
 * sessions next to the feeds, reporting to the fleet's PostgreSQL, which
 * the hub (`klvscope serve --catalog URL`) reads (docs/fleet.md "Probes").
 * Runs until SIGINT or SIGTERM; then its sessions end as 'interrupted' and
 * the next start of a probe of the same name takes them up again.
 */
import { openLiveSource } from '@klvscope/adapters';
import { ProbeNode } from '../probe/probe-node.js';
import { DEFAULT_OUTBOX_LIMIT_BYTES } from '../probe/probe-outbox.js';
import { requiredCatalogUrl } from './catalog-url.js';
import { loadCliChecks, type RuleOptions } from './cli-checks.js';
import { untilStopped } from './until-stopped.js';
import { UsageError } from './usage-error.js';

export interface ProbeOptions extends RuleOptions {
  catalog?: string;
  name?: string;
  source: string[];
  noDataSeconds?: string;
  bufferBytes?: string;
  quiet?: boolean;
}

export async function runProbe(options: ProbeOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const catalogUrl = requiredCatalogUrl(options.catalog, env);
  const name = options.name ?? '';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) throw new UsageError(`--name takes the probe's name: letters, digits, '.', '_' and '-', up to 64 (got '${name}')`);
  const noDataSeconds = positive(options.noDataSeconds ?? '5', '--no-data-seconds');
  const bufferLimitBytes = positive(options.bufferBytes ?? String(DEFAULT_OUTBOX_LIMIT_BYTES), '--buffer-bytes');
  const { checks, rules } = await loadCliChecks(options);
  const log = options.quiet ? () => undefined : (line: string) => process.stdout.write(`${new Date().toISOString()} probe ${name}: ${line}\n`);
  const probe = await ProbeNode.start({ catalogUrl, name, sources: options.source, openSource: (url) => openLiveSource(url), checks, rules, noDataSeconds, bufferLimitBytes, log });
  log(`running, reporting to ${catalogUrl.replace(/\/\/[^@/]*@/, '//')}`);
  await untilStopped([{ close: () => probe.stop() }], `the probe '${name}' (its sessions resume at its next start)`);
  process.stdout.write(`klvscope: probe ${name} stopped\n`);
}

function positive(text: string, name: string): number {
  const n = Number(text);
  if (text.trim() === '' || !(n > 0) || !Number.isFinite(n)) throw new UsageError(`${name} takes a number above 0, got '${text}'`);
  return n;
}
