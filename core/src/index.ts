export * from './kernel/observations.js';
export { crc32Mpeg2 } from './ts/crc32.js';
export { streamTypeName } from './ts/stream-types.js';
export { TsDemuxer, type DemuxerOptions } from './ts/demuxer.js';
