export * from './kernel/observations.js';
export { crc32Mpeg2 } from './ts/crc32.js';
export { streamTypeName } from './ts/stream-types.js';
export { TsDemuxer, type DemuxerOptions } from './ts/demuxer.js';
export { InventoryBuilder, type Inventory, type InventoryPid, type InventoryProgram } from './ts/inventory.js';
export type { PesPayloadConsumer } from './ts/pes-payload-consumer.js';
export type { PacketSize } from './ts/packet-layout.js';
export { PCR_HZ, PTS_HZ, pcrDelta27MHz, ptsDelta90kHz, ptsMinusPcr90kHz } from './ts/clock.js';
