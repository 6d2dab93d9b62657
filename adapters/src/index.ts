/** @klvscope/adapters: byte sources and sinks that touch the OS. */
export { AdapterError, type AdapterErrorCode } from './adapter-error.js';
export { DEFAULT_CHUNK_SIZE, fileSize, readFileChunks, type ReadFileChunksOptions } from './file.js';
export type { LiveChunk, LiveSource, LiveSourceEvent, LiveSourceEventKind, LiveSourceStats } from './live-source.js';
export { openLiveSource } from './open-live-source.js';
export { epochNow } from './epoch-clock.js';
export { DEFAULT_SERIAL_QUEUE_BYTES, openSerialSource, type SerialSourceOptions } from './serial.js';
export { DEFAULT_SERIAL_BAUD_RATE, isSerialSourceUrl, parseSerialSourceUrl, type SerialSourceUrl } from './serial-source-url.js';
export { ResyncFramer, type FramedBytes, type NoiseRun } from './resync-framer.js';
export { DEFAULT_MAX_KLV_VALUE_BYTES, KlvFramer, type KlvFramerOptions } from './klv-framer.js';
export { TS_PACKET_BYTES, TsFramer } from './ts-framer.js';
export { DEFAULT_MAX_QUEUE_BYTES, DEFAULT_MAX_QUEUE_DATAGRAMS, openUdpSource, type UdpSource, type UdpSourceOptions } from './udp.js';
export { DEFAULT_RECEIVE_BUFFER_BYTES, parseUdpSourceUrl, type RtpMode, type UdpSourceAddress } from './udp-source-url.js';
export { parseUdpDestinationUrl, type UdpDestination } from './udp-destination-url.js';
export {
  MP2T_PAYLOAD_TYPE,
  RTP_CLOCK_HZ,
  RTP_HEADER_SIZE,
  isRtpTransportStream,
  rtpPayloadEnd,
  rtpPayloadOffset,
  rtpSequenceNumber,
  rtpTimestamp,
  unwrapRtp,
  wrapRtp,
  writeRtpHeader,
  type RtpHeaderFields,
} from './rtp.js';
export { RtpSequence } from './rtp-sequence.js';
export { DEFAULT_PACKETS_PER_DATAGRAM, MAX_PACKETS_PER_DATAGRAM, replayFile, type ReplayOptions, type ReplayProgress, type ReplayStats } from './replay.js';
