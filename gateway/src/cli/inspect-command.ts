/** `klvscope inspect FILE [--json]`: the inventory of a transport stream. */
import { DEMUXER_FACTORY, InventoryBuilder, resolveService, runPipeline, type Demuxer, type Inventory } from '@klvscope/core';
import { fileSize, readFileChunks } from '@klvscope/adapters';
import { composeApplication } from '../composition-root.js';
import { formatInventory } from './inventory-text.js';
import { startProgress } from './progress.js';
import { UsageError } from './usage-error.js';

export interface InspectOptions {
  json?: boolean;
}

export async function inspectFile(path: string): Promise<Inventory> {
  const container = composeApplication();
  const makeDemuxer = resolveService(container, DEMUXER_FACTORY);
  const total = await fileSize(path);
  const inventory = new InventoryBuilder();
  let demuxer: Demuxer | undefined;
  const progress = startProgress('Inspecting', total);
  try {
    await runPipeline(readFileChunks(path), {
      checks: [],
      observationSinks: [(o) => inventory.observe(o)],
      demuxerFactory: (sink) => (demuxer = makeDemuxer(sink)),
      onProgress: (done) => progress.update(done),
    });
  } finally {
    progress.stop();
  }
  const result = inventory.build(demuxer?.packetSize ?? null);
  if (result.totalPackets === 0) throw new UsageError(`${path}: not an MPEG-TS stream (no packets of 188, 192 or 204 bytes found)`);
  return result;
}

export async function runInspect(path: string, options: InspectOptions): Promise<void> {
  const inventory = await inspectFile(path);
  process.stdout.write(options.json ? `${JSON.stringify({ file: path, ...inventory }, null, 2)}\n` : `${formatInventory(path, inventory)}\n`);
}
