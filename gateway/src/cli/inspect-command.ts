/**
 * `klvscope inspect FILE`: the inventory of a transport stream, a summary of
 * its KLV, and every check's verdict (built-in checks and the configured
 * plugins). `--check ID` prints that check's points instead. The exit code
 * says whether a violation of the `--fail-on` severity was found.
 */
import {
  DEMUXER_FACTORY,
  InventoryBuilder,
  KlvSummaryBuilder,
  resolveService,
  runPipeline,
  type CheckResult,
  type Demuxer,
  type Inventory,
  type KlvPidSummary,
} from '@klvscope/core';
import { fileSize, readFileChunksForInspection } from '@klvscope/adapters';
import { composeApplication } from '../composition-root.js';
import { loadCliChecks, type RuleOptions } from './cli-checks.js';
import { formatStages, inspectWithStore } from './stored-inspection.js';
import { catalogUrlOption } from './catalog-url.js';
import { formatCheckTable, formatPoints, type PointFormat } from './check-report.js';
import { formatInventory } from './inventory-text.js';
import { formatKlvSummary } from './klv-summary-text.js';
import { startProgress } from './progress.js';
import { UsageError } from './usage-error.js';

export type FailOn = 'error' | 'warn' | 'never';

export interface InspectOptions extends RuleOptions {
  json?: boolean;
  /** Use the store: a data folder, or true for the default one. */
  store?: string | true;
  /** With --store: a fleet's PostgreSQL, whose inspection of the file is reused, and to which this one is published. */
  catalog?: string;
  check?: string;
  format: string;
  failOn: string;
  /** `--threads N`: threads in all for reading the file (parallel-file-chunks.ts); default 1. */
  threads?: string;
}

export interface InspectReport extends Inventory {
  klv: KlvPidSummary[];
  checks: CheckResult[];
}

export async function inspectFile(path: string, options: RuleOptions & { onlyCheck?: string; threads?: number } = {}): Promise<InspectReport> {
  const { checks, rules, ruleSet } = await loadCliChecks(options);
  const selected = options.onlyCheck ? checks.filter((c) => c.id === options.onlyCheck) : checks;
  if (options.onlyCheck && selected.length === 0) {
    throw new UsageError(`unknown check '${options.onlyCheck}' (known: ${checks.map((c) => c.id).join(', ')})`);
  }
  const container = composeApplication();
  const makeDemuxer = resolveService(container, DEMUXER_FACTORY);
  const total = await fileSize(path);
  const inventory = new InventoryBuilder();
  const klv = new KlvSummaryBuilder();
  let demuxer: Demuxer | undefined;
  const progress = startProgress('Inspecting', total);
  let session;
  try {
    session = await runPipeline(readFileChunksForInspection(path, { threads: options.threads ?? 1 }), {
      checks: selected,
      rules,
      observationSinks: [(o) => inventory.observe(o), (o) => klv.observe(o)],
      sinkKinds: [...InventoryBuilder.kinds, ...KlvSummaryBuilder.kinds],
      demuxerFactory: (sink, made) => (demuxer = makeDemuxer(sink, made)),
      onProgress: (done) => progress.update(done),
      // Only a single check's points are printed; for the table the summaries suffice.
      keepPoints: options.onlyCheck !== undefined,
      maxPointsPerCheck: ruleSet.shared.maxPointsPerCheck,
    });
  } finally {
    progress.stop();
  }
  const result = inventory.build(demuxer?.packetSize ?? null);
  if (result.totalPackets === 0) throw new UsageError(`${path}: not an MPEG-TS stream (no packets of 188, 192 or 204 bytes found)`);
  return { ...result, klv: klv.build(), checks: session.checks };
}

function failOnOf(value: string): FailOn {
  if (value === 'error' || value === 'warn' || value === 'never') return value;
  throw new UsageError(`--fail-on must be error, warn or never, got '${value}'`);
}

/** `--threads N`: a whole number from 1 (one thread, the default) to 64. */
export function threadsOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new UsageError(`--threads must be a whole number from 1 to 64, got '${value}'`);
  return threads;
}

function formatOf(value: string): PointFormat {
  if (value === 'text' || value === 'json' || value === 'csv') return value;
  throw new UsageError(`--format must be text, json or csv, got '${value}'`);
}

/** 1 when a violation at or above the --fail-on severity was found, else 0. */
export function exitCodeFor(checks: ReadonlyArray<Pick<CheckResult, 'summary'>>, failOn: FailOn): number {
  if (failOn === 'never') return 0;
  const errors = checks.reduce((n, c) => n + c.summary.violationsBySeverity.error, 0);
  const warnings = checks.reduce((n, c) => n + c.summary.violationsBySeverity.warning, 0);
  return errors > 0 || (failOn === 'warn' && warnings > 0) ? 1 : 0;
}

export async function runInspect(path: string, options: InspectOptions): Promise<number> {
  const failOn = failOnOf(options.failOn);
  const format = formatOf(options.format);
  const threads = threadsOf(options.threads);
  if (options.catalog !== undefined && options.store === undefined) throw new UsageError('--catalog goes with --store: the inspection is kept in a data folder and published to the fleet');
  if (options.store !== undefined) return runStoredInspect(path, options, failOn, format, threads);
  const report = await inspectFile(path, { ...options, onlyCheck: options.check, threads });
  if (options.check) {
    process.stdout.write(`${formatPoints(report.checks[0].points, format)}\n`);
  } else if (options.json) {
    const checks = report.checks.map(({ points: _points, ...rest }) => rest);
    process.stdout.write(`${JSON.stringify({ file: path, ...report, checks }, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatInventory(path, report)}\n\n${formatKlvSummary(report.klv)}\n\n${formatCheckTable(report.checks)}\n`);
  }
  return exitCodeFor(report.checks, failOn);
}

/** `inspect --store`: the same output, from the workflow's stages (reused where cached), with a line saying which. */
async function runStoredInspect(path: string, options: InspectOptions, failOn: FailOn, format: PointFormat, threads: number): Promise<number> {
  const { dataDir, result, points } = await inspectWithStore(path, options.store as string | true, loadCliChecks(options), options.check, catalogUrlOption(options.catalog), threads);
  const checks = result.process.checks;
  if (points !== null) {
    process.stdout.write(`${formatPoints(points, format)}\n`);
  } else if (options.json) {
    const { report, stages, latestIngestRunId } = result;
    process.stdout.write(`${JSON.stringify({ file: path, latestIngestRunId, stages, ...report }, null, 2)}\n`);
  } else {
    const { inventory, klv } = result.analyze;
    process.stdout.write(`${formatInventory(path, inventory)}\n\n${formatKlvSummary(klv)}\n\n${formatCheckTable(checks)}\n`);
  }
  process.stderr.write(`${formatStages(result, dataDir)}\n`);
  return exitCodeFor(
    points !== null ? checks.filter((c) => c.checkId === options.check) : checks,
    failOn,
  );
}
