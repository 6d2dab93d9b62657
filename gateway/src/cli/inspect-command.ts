/** `klvscope inspect FILE [--json]`: the inventory of a transport stream and a summary of its KLV. */
import {
  DEMUXER_FACTORY,
  InventoryBuilder,
  KlvSummaryBuilder,
  resolveService,
  runPipeline,
  type Demuxer,
  type Inventory,
  type KlvPidSummary,
} from '@klvscope/core';
import { fileSize, readFileChunks } from '@klvscope/adapters';
import { composeApplication } from '../composition-root.js';
import { formatInventory } from './inventory-text.js';
import { formatKlvSummary } from './klv-summary-text.js';
import { startProgress } from './progress.js';
import { UsageError } from './usage-error.js';

export interface InspectOptions {
  json?: boolean;
}

export interface InspectReport extends Inventory {
  klv: KlvPidSummary[];
}

export async function inspectFile(path: string): Promise<InspectReport> {
  const container = composeApplication();
  const makeDemuxer = resolveService(container, DEMUXER_FACTORY);
  const total = await fileSize(path);
  const inventory = new InventoryBuilder();
  const klv = new KlvSummaryBuilder();
  let demuxer: Demuxer | undefined;
  const progress = startProgress('Inspecting', total);
  try {
    await runPipeline(readFileChunks(path), {
      checks: [],
      observationSinks: [(o) => inventory.observe(o), (o) => klv.observe(o)],
      demuxerFactory: (sink) => (demuxer = makeDemuxer(sink)),
      onProgress: (done) => progress.update(done),
    });
  } finally {
    progress.stop();
  }
  const result = inventory.build(demuxer?.packetSize ?? null);
  if (result.totalPackets === 0) throw new UsageError(`${path}: not an MPEG-TS stream (no packets of 188, 192 or 204 bytes found)`);
  return { ...result, klv: klv.build() };
}

export async function runInspect(path: string, options: InspectOptions): Promise<void> {
  const report = await inspectFile(path);
  const text = options.json ? JSON.stringify({ file: path, ...report }, null, 2) : `${formatInventory(path, report)}\n\n${formatKlvSummary(report.klv)}`;
  process.stdout.write(`${text}\n`);
}
