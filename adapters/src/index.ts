/** @klvscope/adapters: byte sources and sinks that touch the OS. */
export { AdapterError, type AdapterErrorCode } from './adapter-error.js';
export { fileSize, readFileChunks, readFileHead, type ReadFileChunksOptions } from './file.js';
export type { LiveChunk, LiveSource, LiveSourceEvent, LiveSourceEventKind, LiveSourceStats } from './live-source.js';
export { openLiveSource } from './open-live-source.js';
export { isSerialSourceUrl } from './serial-source-url.js';
export { epochNow } from './epoch-clock.js';
export { openUdpSource, type UdpSource, type UdpSourceOptions } from './udp.js';
export { wrapRtp, type RtpHeaderFields } from './rtp.js';
export { MAX_PACKETS_PER_DATAGRAM, replayFile, type PacketInput, type ReplayOptions, type ReplayProgress, type ReplayStats } from './replay.js';
export { openFileSource, openPacedTsSource, type PacedTsSourceOptions } from './paced-ts-source.js';
export { UdpDatagramSink } from './udp-datagram-sink.js';
export { parseUdpSourceUrl, type UdpSourceAddress } from './udp-source-url.js';
export { parseUdpDestinationUrl, type UdpDestination } from './udp-destination-url.js';
