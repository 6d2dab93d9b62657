/**
 * `klvscope worker --catalog URL [--concurrency N] [--path-map FROM=TO]`:
 * a node of the fleet (docs/fleet.md), claiming inspection jobs until
 * SIGINT or SIGTERM; then it finishes and publishes the jobs it holds.
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetWorker } from '../fleet/fleet-worker.js';
import { parsePathMapping } from '../fleet/path-map.js';
import { requiredCatalogUrl } from './catalog-url.js';
import { loadCliChecks, type RuleOptions } from './cli-checks.js';
import { untilStopped } from './until-stopped.js';
import { UsageError } from './usage-error.js';

export interface WorkerOptions extends RuleOptions {
  catalog?: string;
  concurrency?: string;
  pathMap: string[];
  workDir?: string;
  leaseSeconds?: string;
  quiet?: boolean;
}

export async function runWorker(options: WorkerOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const catalogUrl = requiredCatalogUrl(options.catalog, env);
  const concurrency = wholeNumber(options.concurrency ?? '1', '--concurrency');
  const leaseSeconds = wholeNumber(options.leaseSeconds ?? '30', '--lease-seconds');
  const workDir = options.workDir ?? join(tmpdir(), `klvscope-worker-${process.pid}`);
  await mkdir(workDir, { recursive: true });
  const checks = await loadCliChecks(options);
  const worker = await FleetWorker.start({
    catalogUrl,
    concurrency,
    leaseSeconds,
    // Maintenance a few times per lease, so an expired claim is seen soon after it runs out.
    maintenanceSeconds: Math.max(1, Math.floor(leaseSeconds / 5)),
    pathMappings: options.pathMap.map(parsePathMapping),
    workDir,
    checks,
    log: options.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  await untilStopped([{ close: () => worker.stop() }], 'the worker (after its jobs in progress)');
  process.stdout.write('klvscope: worker stopped\n');
}

function wholeNumber(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} takes a whole number of at least 1, got '${text}'`);
  return n;
}
