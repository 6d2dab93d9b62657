/** `klvscope inspect FILE [--json]`: the inventory of a transport stream. */
import { InventoryBuilder, TsDemuxer, type Inventory } from '@klvscope/core';
import { fileSize, readFileChunks } from '@klvscope/adapters';
import { formatInventory } from './inventory-text.js';
import { startProgress } from './progress.js';
import { UsageError } from './usage-error.js';

export interface InspectOptions {
  json?: boolean;
}

export async function inspectFile(path: string): Promise<Inventory> {
  const total = await fileSize(path);
  const inventory = new InventoryBuilder();
  const demuxer = new TsDemuxer((o) => inventory.observe(o));
  const progress = startProgress('Inspecting', total);
  try {
    for await (const chunk of readFileChunks(path, { onProgress: (done) => progress.update(done) })) demuxer.push(chunk.bytes);
  } finally {
    progress.stop();
  }
  demuxer.end();
  if (demuxer.packets === 0) throw new UsageError(`${path}: not an MPEG-TS stream (no packets of 188, 192 or 204 bytes found)`);
  return inventory.build(demuxer.packetSize);
}

export async function runInspect(path: string, options: InspectOptions): Promise<void> {
  const inventory = await inspectFile(path);
  process.stdout.write(options.json ? `${JSON.stringify({ file: path, ...inventory }, null, 2)}\n` : `${formatInventory(path, inventory)}\n`);
}
